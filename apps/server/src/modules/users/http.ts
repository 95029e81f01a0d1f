export { clientOf } from '../../platform/http/client.ts';
