/** A small sailboat; drawn inline because system fonts may lack the emoji. */
export function Logo() {
  return (
    <svg className="logo" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
      <path d="M11 2 L11 16 L4 16 Z" fill="currentColor" opacity="0.85" />
      <path d="M13 5 L13 16 L19 16 Z" fill="currentColor" opacity="0.6" />
      <path d="M2 18 H22 L19 22 H5 Z" fill="currentColor" />
    </svg>
  );
}
