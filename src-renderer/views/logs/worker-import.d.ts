/** Vite's `?worker` import: a constructor for the bundled worker, module in dev and classic when built. */
declare module '*?worker' {
  const WorkerConstructor: new (options?: { name?: string }) => Worker;
  export default WorkerConstructor;
}
