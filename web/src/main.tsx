import './shell/theme.css';
import './shell/base.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { preloadScreen } from './app/lazy-screens.ts';
import { matchRoute } from './routing/match-route.ts';

// The first screen's code loads while the start-up calls run.
preloadScreen(matchRoute(window.location.pathname, window.location.search).screen);

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root');
createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
