import { useAuth } from '../../state/auth';
import { type Area, useRoute } from '../../state/route';
import { useTheme } from '../../state/theme';
import { Logo } from '../common/Logo';
import { PaletteButton } from '../palette/CommandPalette';
import { NamespaceSelect } from './NamespaceSelect';

const AREAS: Array<{ id: Area; label: string }> = [
  { id: 'resources', label: 'Resources' },
  { id: 'events', label: 'Events' },
  { id: 'security', label: 'Security' },
  { id: 'settings', label: 'Settings' },
];

const THEME_LABEL = { system: 'Theme: system', light: 'Theme: light', dark: 'Theme: dark' } as const;

export function Header() {
  const area = useRoute((s) => s.area);
  const go = useRoute((s) => s.go);
  const theme = useTheme();
  const { phase, username, logout } = useAuth();
  return (
    <header className="app-header">
      <p className="brand">
        <Logo /> Skiff
      </p>
      <nav aria-label="Main">
        <ul className="area-nav">
          {AREAS.map((a) => (
            <li key={a.id}>
              <button
                type="button"
                aria-current={area === a.id ? 'page' : undefined}
                onClick={() => go({ area: a.id })}
              >
                {a.label}
              </button>
            </li>
          ))}
        </ul>
      </nav>
      {area === 'resources' && <NamespaceSelect />}
      <PaletteButton />
      <div className="header-end">
        <button type="button" onClick={theme.cycle} title="Switch between system, light and dark">
          {THEME_LABEL[theme.preference]}
        </button>
        {username && <span className="muted">{username}</span>}
        {phase === 'signed-in' && (
          <button type="button" onClick={() => void logout()}>
            Log out
          </button>
        )}
      </div>
    </header>
  );
}
