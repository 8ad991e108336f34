// Global styles first, so component styles that come later in the bundle win over base rules.
import './styles/tokens.css';
import './styles/base.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { createAppRouter, routerNavigator } from './app/router';
import { RootStore } from './stores';

const store = new RootStore();
const router = createAppRouter();
store.setNavigator(routerNavigator(router));
// The start-up calls go out now, while React renders the first frame: the page paints without waiting for
// them, and nothing between the HTML and the API is a chain of requests.
void store.init();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App store={store} router={router} />
  </StrictMode>,
);
