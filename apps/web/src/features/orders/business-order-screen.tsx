export { BusinessOrderPage as default } from './order-pages.tsx';
