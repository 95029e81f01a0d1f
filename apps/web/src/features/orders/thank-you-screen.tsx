export { ThankYouPage as default } from './order-pages.tsx';
