export { ProductOrderPage as default } from './order-pages.tsx';
