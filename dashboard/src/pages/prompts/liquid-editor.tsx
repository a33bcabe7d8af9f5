import {
  autocompletion,
  closeBrackets,
  closeBracketsKeymap,
  type Completion,
  completionKeymap,
} from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { liquid } from '@codemirror/lang-liquid';
import {
  bracketMatching,
  foldKeymap,
  HighlightStyle,
  LanguageSupport,
  StreamLanguage,
  syntaxHighlighting,
} from '@codemirror/language';
import { type Diagnostic, lintGutter, lintKeymap, setDiagnostics } from '@codemirror/lint';
import { Compartment, EditorState, type Text } from '@codemirror/state';
import { drawSelection, EditorView, highlightActiveLine, keymap, lineNumbers, placeholder } from '@codemirror/view';
import { tags } from '@lezer/highlight';
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { api, type Schemas, unwrap } from '../../api/client';
import { Problems } from '../../ui/controls';
import { messageBlockMarks } from './message-block-marks';

type Validation = Schemas['TemplateValidationResponse'];
type TemplateProblem = Schemas['TemplateProblemResponse'];

/** How long typing must pause before the template is checked. */
const VALIDATE_AFTER_MS = 400;

/**
 * A prompt is text, not HTML: the Liquid parts are parsed and highlighted, everything else is left as written.
 */
const plainText = new LanguageSupport(
  StreamLanguage.define({ name: 'text', token: (stream) => (stream.skipToEnd(), null) }),
);

/** Colours that keep at least 4.5:1 contrast on the editor's white background. */
const highlighting = HighlightStyle.define([
  {
    tag: [tags.keyword, tags.controlKeyword, tags.definitionKeyword, tags.operatorKeyword, tags.moduleKeyword],
    color: '#6a1b9a',
    fontWeight: '600',
  },
  { tag: [tags.brace], color: '#5b3a00', fontWeight: '600' },
  { tag: [tags.variableName], color: '#0b4f9c' },
  { tag: [tags.propertyName], color: '#0b6b6b' },
  { tag: [tags.function(tags.variableName)], color: '#8a3b00' },
  { tag: [tags.string], color: '#a11' },
  { tag: [tags.number, tags.bool, tags.atom], color: '#1b5e20' },
  { tag: [tags.lineComment, tags.blockComment], color: '#5f6670', fontStyle: 'italic' },
  {
    tag: [tags.compareOperator, tags.logicOperator, tags.definitionOperator, tags.punctuation, tags.derefOperator],
    color: '#37474f',
  },
  { tag: tags.invalid, color: '#b42318', textDecoration: 'underline' },
]);

/**
 * The editor lives in a shadow root: CodeMirror then puts its styles in a constructed (adopted) stylesheet, which a
 * page under `style-src 'self'` accepts, where a <style> element would be refused. Its look is therefore this theme.
 */
const theme = EditorView.theme(
  {
    '&': {
      backgroundColor: '#ffffff',
      color: '#1c2430',
      fontSize: '0.9rem',
      border: '1px solid #8d96a3',
      borderRadius: '6px',
    },
    // The host draws the focus ring (:focus-within), outside the shadow root.
    '&.cm-focused': { outline: 'none' },
    '.cm-scroller': {
      fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
      lineHeight: '1.5',
      minHeight: '14rem',
      maxHeight: '36rem',
    },
    '.cm-content': { padding: '0.5rem 0' },
    '.cm-gutters': {
      backgroundColor: '#f0f2f5',
      color: '#56606e',
      borderRight: '1px solid #d5dae1',
      borderRadius: '6px 0 0 6px',
    },
    '.cm-activeLine': { backgroundColor: '#f3f6fd' },
    '.cm-activeLineGutter': { backgroundColor: '#e4e9f5' },
    '.cm-placeholder': { color: '#56606e' },
    '.cm-tooltip': { border: '1px solid #d5dae1', backgroundColor: '#ffffff', color: '#1c2430' },
    '.cm-tooltip-autocomplete > ul > li[aria-selected]': { backgroundColor: '#2952cc', color: '#ffffff' },
    '.cm-completionDetail': { color: 'inherit', opacity: '0.85' },
    '.cm-diagnostic-error': { borderLeftColor: '#b42318' },
    '.cm-diagnostic-warning': { borderLeftColor: '#8a5a00' },
  },
  { dark: false },
);

export interface EditorField {
  name: string;
  dataType: string;
  description: string;
}

/** Where a problem's `line`/`column` (1-based) falls in the document, and the extent of the token that starts there. */
function rangeOf(doc: Text, problem: TemplateProblem): { from: number; to: number } {
  const lineNumber = Math.min(Math.max(problem.line ?? 1, 1), doc.lines);
  const line = doc.line(lineNumber);
  const from = Math.min(line.from + Math.max((problem.column ?? 1) - 1, 0), line.to);
  const rest = doc.sliceString(from, line.to);
  const close = rest.startsWith('{{') ? rest.indexOf('}}') : rest.startsWith('{%') ? rest.indexOf('%}') : -1;
  const length =
    rest.startsWith('{{') || rest.startsWith('{%')
      ? close >= 0
        ? close + 2
        : rest.length
      : (/^[\w.]+/.exec(rest)?.[0].length ?? Math.min(rest.length, 1));
  return { from, to: from + length };
}

function diagnosticsOf(doc: Text, validation: Validation): Diagnostic[] {
  return validation.errors.map((problem) => ({
    ...rangeOf(doc, problem),
    severity: 'error',
    message: problem.message,
    source: 'Template check',
  }));
}

/** `line 3, column 5: message`, or the message alone when the problem has no position. */
export function problemText(problem: TemplateProblem): string {
  return problem.line === null
    ? problem.message
    : `line ${problem.line}, column ${problem.column ?? 1}: ${problem.message}`;
}

/** The endpoint's inputs, offered as `inputs` and its properties, and as whole `inputs.<name>` variables. */
function completionConfig(fields: EditorField[]) {
  const described = (field: EditorField) => `${field.dataType}${field.description ? ` — ${field.description}` : ''}`;
  const variables: Completion[] = [
    { label: 'inputs', type: 'variable', detail: 'the request body', boost: 2 },
    ...fields.map((field) => ({ label: `inputs.${field.name}`, type: 'variable', detail: described(field), boost: 1 })),
  ];
  return {
    variables,
    properties: (path: readonly string[]): Completion[] =>
      path.length === 1 && path[0] === 'inputs'
        ? fields.map((field) => ({ label: field.name, type: 'property', detail: described(field) }))
        : [],
  };
}

/**
 * A Liquid editor (CodeMirror) whose template is checked by the service as you type: its problems are marked at their
 * line and column in the editor and listed below it; the endpoint's input fields are offered for completion; chat
 * message blocks are highlighted by role and can be folded.
 */
export function LiquidEditor({
  value,
  onChange,
  endpointId,
  fields,
  label,
}: {
  value: string;
  onChange: (value: string) => void;
  endpointId: string;
  fields: EditorField[];
  label: string;
}) {
  const hostRef = useRef<HTMLDivElement>(null);
  const viewRef = useRef<EditorView | null>(null);
  const language = useRef(new Compartment());
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const [validation, setValidation] = useState<{ template: string; result: Validation } | null>(null);
  const [checkFailure, setCheckFailure] = useState<unknown>(null);
  const [checking, setChecking] = useState(false);
  const listId = useId();
  const fieldsKey = fields.map((field) => `${field.name}:${field.dataType}`).join(',');

  useEffect(() => {
    const host = hostRef.current!;
    const root = host.shadowRoot ?? host.attachShadow({ mode: 'open' });
    const view = new EditorView({
      root,
      parent: root,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(),
          lintGutter(),
          messageBlockMarks(),
          history(),
          drawSelection(),
          highlightActiveLine(),
          bracketMatching(),
          closeBrackets(),
          autocompletion({ activateOnTyping: true }),
          language.current.of(liquid({ base: plainText, ...completionConfig(fields) })),
          syntaxHighlighting(highlighting),
          placeholder(
            'Write the prompt. Read the request with {{ inputs.<field> }}, e.g. Summarize: {{ inputs.text }}',
          ),
          EditorView.lineWrapping,
          theme,
          // Tab is left to move focus out of the editor, so keyboard users are never trapped in it.
          keymap.of([
            ...closeBracketsKeymap,
            ...defaultKeymap,
            ...historyKeymap,
            ...completionKeymap,
            ...lintKeymap,
            ...foldKeymap,
          ]),
          EditorView.contentAttributes.of({ 'aria-label': label }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) onChangeRef.current(update.state.doc.toString());
          }),
        ],
      }),
    });
    viewRef.current = view;
    return () => {
      view.destroy();
      viewRef.current = null;
    };
    // The editor is created once; the effects below keep it in step with the props.
  }, []);

  // A value set from outside (a reset after saving) replaces the document.
  useEffect(() => {
    const view = viewRef.current;
    if (view && view.state.doc.toString() !== value)
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: value } });
  }, [value]);

  useEffect(() => {
    viewRef.current?.dispatch({
      effects: language.current.reconfigure(liquid({ base: plainText, ...completionConfig(fields) })),
    });
    // Reconfigured when the fields' names change (fieldsKey), not for each new array holding the same fields.
  }, [fieldsKey]);

  // Checked once typing pauses; an answer for an older text is dropped.
  useEffect(() => {
    let current = true;
    setChecking(true);
    const timer = setTimeout(() => {
      unwrap(api.POST('/admin/v1/prompts/validate', { body: { endpointId, template: value } })).then(
        (result) => {
          if (!current) return;
          setValidation({ template: value, result });
          setCheckFailure(null);
          setChecking(false);
        },
        (error) => {
          if (!current) return;
          setCheckFailure(error);
          setChecking(false);
        },
      );
    }, VALIDATE_AFTER_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [value, endpointId, fieldsKey]);

  useEffect(() => {
    const view = viewRef.current;
    if (!view || !validation || view.state.doc.toString() !== validation.template) return;
    view.dispatch(setDiagnostics(view.state, diagnosticsOf(view.state.doc, validation.result)));
  }, [validation]);

  const result = validation?.result;
  return (
    <div className="liquid-editor">
      <div ref={hostRef} className="code-editor" />
      <div id={listId} className="template-check" aria-live="polite">
        {checkFailure !== null ? (
          <Problems error={checkFailure} />
        ) : !result ? (
          <p className="muted">Checking the template…</p>
        ) : result.valid ? (
          <p className="template-ok">
            ✓ No problems found{result.variables.length > 0 ? `. Reads ${result.variables.join(', ')}.` : '.'}
            {checking && <span className="muted"> Checking…</span>}
          </p>
        ) : (
          <div className="template-problems">
            <p>
              <strong>
                {result.errors.length === 1 ? '1 problem' : `${result.errors.length} problems`} in the template
              </strong>
              {checking && <span className="muted"> Checking…</span>}
            </p>
            <ul>
              {result.errors.map((problem, index) => (
                <li key={index}>{problemText(problem)}</li>
              ))}
            </ul>
            {result.unknownVariables.length > 0 && (
              <p>
                Unknown variables:{' '}
                {result.unknownVariables
                  .map((name) => <code key={name}>{name}</code>)
                  .reduce<ReactNode[]>((all, item, index) => (index === 0 ? [item] : [...all, ', ', item]), [])}
                {fields.length > 0 && (
                  <> — the endpoint's inputs are {fields.map((field) => `inputs.${field.name}`).join(', ')}.</>
                )}
              </p>
            )}
          </div>
        )}
      </div>
    </div>
  );
}
