// electron-vite's module types for the main process: `*?asset` imports are file paths.
/// <reference types="electron-vite/node" />
