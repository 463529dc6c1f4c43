import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter } from 'react-router';
import { ApiError } from './lib/api-client';
import { I18nProvider } from './lib/i18n';
import { App, preload } from './app/app';
import { sessionQuery } from './lib/session';
import './app/styles.css';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 15_000,
      refetchOnWindowFocus: false,
      // a 4xx will not get better by asking again
      retry: (count, error) =>
        !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2,
    },
  },
});

/** how long the first render waits for the session's answer at most */
const SESSION_WAIT_MS = 250;

// asked for before the first render, which would otherwise start them only once it has committed
const session = queryClient.prefetchQuery(sessionQuery);
preload(queryClient, window.location);

// index.html asks for the session while this code downloads, so its answer is usually in by now:
// waiting for it lets the first render know who is signed in (no second render for it) and lets
// what the session unlocks (the dashboard's catalog, app.tsx) be asked for before the render keeps
// the page busy; a slow answer holds the first render back no longer than SESSION_WAIT_MS
void Promise.race([session, new Promise((resolve) => setTimeout(resolve, SESSION_WAIT_MS))]).then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <I18nProvider>
          <BrowserRouter>
            <App />
          </BrowserRouter>
        </I18nProvider>
      </QueryClientProvider>
    </StrictMode>,
  ),
);
