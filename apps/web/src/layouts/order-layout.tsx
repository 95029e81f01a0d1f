export { FreeTrialLayout as default } from '../features/orders/free-trial-layout.tsx';
