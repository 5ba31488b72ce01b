// Every utility class of the app (the admin screens' classes are not in the sign-in page's
// stylesheet; see src/index.css), shared with the server area so both load one file.
import '../server/server.css';
export { AdminArea } from './AdminArea.tsx';
