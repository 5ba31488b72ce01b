import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { bracketMatching, indentOnInput } from '@codemirror/language';
import { highlightSelectionMatches, search, searchKeymap } from '@codemirror/search';
import { Compartment, EditorState, type Extension, type Text } from '@codemirror/state';
import {
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
} from '@codemirror/view';
import { loadLanguage } from './languages.ts';
import type { ModeId } from './modes.ts';
import { editorTheme } from './theme.ts';

// CodeMirror behind a small imperative interface. This module is the editor's lazily loaded chunk:
// it imports CodeMirror and nothing of the app (not even React), so loading it changes none of the
// chunks other pages share.

export interface CodeEditorOptions {
  doc: string;
  mode: ModeId;
  readOnly: boolean;
  /** Accessible name of the text area. */
  label: string;
  /** Id of the text that says how to leave the editor with the keyboard (read with the label). */
  describedBy?: string;
  /** Called whenever the text starts or stops differing from the last saved text. */
  onDirtyChange: (dirty: boolean) => void;
}

export interface CodeEditorInstance {
  /** The text as it would be saved (with the file's own line breaks), and the document it came from. */
  snapshot(): { text: string; doc: Text };
  /** Marks `doc` as what the file now holds: the editor is clean when its text equals it again. */
  markSaved(doc: Text): void;
  setMode(mode: ModeId): void;
  setReadOnly(readOnly: boolean): void;
  focus(): void;
  destroy(): void;
}

/** `\r\n` when the file uses Windows line breaks, so saving keeps them; otherwise `\n`. */
export function lineBreakOf(text: string): string {
  return /\r\n/.test(text) ? '\r\n' : '\n';
}

/** A CodeMirror 6 view over `options.doc`, appended to `parent`. */
export function createCodeEditor(parent: HTMLElement, options: CodeEditorOptions): CodeEditorInstance {
  const language = new Compartment();
  const access = new Compartment();
  let saved: Text;
  let modeRequest = 0;

  const state = EditorState.create({
    doc: options.doc,
    extensions: [
      EditorState.lineSeparator.of(lineBreakOf(options.doc)),
      lineNumbers(),
      highlightActiveLineGutter(),
      history(),
      drawSelection(),
      highlightActiveLine(),
      indentOnInput(),
      bracketMatching(),
      highlightSelectionMatches(),
      search({ top: true }),
      keymap.of([...defaultKeymap, ...historyKeymap, ...searchKeymap, indentWithTab]),
      editorTheme,
      language.of([]),
      access.of(EditorState.readOnly.of(options.readOnly)),
      EditorView.contentAttributes.of({
        'aria-label': options.label,
        ...(options.describedBy ? { 'aria-describedby': options.describedBy } : {}),
      }),
      EditorView.updateListener.of((update) => {
        if (update.docChanged) options.onDirtyChange(!update.state.doc.eq(saved));
      }),
    ],
  });
  saved = state.doc;
  const view = new EditorView({ state, parent });

  const setMode = (mode: ModeId) => {
    // A newer choice wins over a grammar still downloading for an older one.
    const request = ++modeRequest;
    const apply = (extension: Extension) => {
      if (request === modeRequest) view.dispatch({ effects: language.reconfigure(extension) });
    };
    loadLanguage(mode).then(apply, (error: unknown) => {
      console.error(error);
      apply([]);
    });
  };
  setMode(options.mode);

  return {
    snapshot: () => ({ text: view.state.sliceDoc(), doc: view.state.doc }),
    markSaved: (doc) => {
      saved = doc;
      options.onDirtyChange(!view.state.doc.eq(doc));
    },
    setMode,
    setReadOnly: (readOnly) =>
      view.dispatch({ effects: access.reconfigure(EditorState.readOnly.of(readOnly)) }),
    focus: () => view.focus(),
    destroy: () => {
      modeRequest++;
      view.destroy();
    },
  };
}
