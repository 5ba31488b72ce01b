// The CSS grammar is also a static dependency of other grammars (HTML, Sass), so the bundler puts
// it in a shared chunk. Importing it through this module gives it an entry chunk of its own;
// a dynamic import straight into a shared chunk would need a namespace helper in the runtime chunk
// that the login page downloads.
export { css } from '@codemirror/lang-css';
