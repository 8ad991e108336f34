import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { createAppRouter } from './app/router';
import { RootStore } from './stores';
import './styles/tokens.css';
import './styles/base.css';

const store = new RootStore();
const router = createAppRouter();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App store={store} router={router} />
  </StrictMode>,
);
