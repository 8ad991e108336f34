export { MainLayout, AuthLayout, ToastHost } from './components/layouts';
