import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
// Shared styles first, so that each view's own stylesheet (imported beside it) comes after them.
import './theme.css';
import './base.css';
import './views/common/controls.css';
import './views/common/badges.css';
import './views/common/plain-table.css';
import { App } from './views/App';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
