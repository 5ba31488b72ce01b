export { ServerArea } from './ServerArea.tsx';
