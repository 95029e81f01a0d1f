export { FooterPageLayout as default } from './footer-page-layout.tsx';
