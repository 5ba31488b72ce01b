import './server.css';
export { ServerArea } from './ServerArea.tsx';
