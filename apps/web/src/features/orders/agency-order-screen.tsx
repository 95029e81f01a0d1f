export { AgencyOrderPage as default } from './order-pages.tsx';
