// Like css.ts: the JavaScript grammar is shared with HTML, Vue and others, and this module gives
// the dynamic import an entry chunk of its own, so the runtime chunk needs no namespace helper.
export { javascript } from '@codemirror/lang-javascript';
