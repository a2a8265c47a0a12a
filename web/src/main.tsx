import './shell/theme.css';
import './shell/base.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { findRoute } from './app/match-route.ts';

// The first screen's code loads while the start-up calls run.
findRoute(window.location.pathname, window.location.search).preload();

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root');
createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
