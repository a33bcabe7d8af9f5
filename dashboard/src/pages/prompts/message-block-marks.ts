import { codeFolding, foldGutter, foldService } from '@codemirror/language';
import { type EditorState, type Extension, type Range, StateField } from '@codemirror/state';
import { Decoration, type DecorationSet, EditorView, gutter, GutterMarker } from '@codemirror/view';
import { type MessageBlock, type MessageRole, type MessageTag, messageTagsOf } from './message-tags';

const ROLE_NAMES: Record<MessageRole, string> = { system: 'System', user: 'User', assistant: 'Assistant' };
/** The gutter's label of a block: a word, so the role is told by text and not by colour alone. */
const ROLE_LABELS: Record<MessageRole, string> = { system: 'sys', user: 'user', assistant: 'asst' };

/** The template's message block tags and blocks, found again when the text changes. */
const messageTags = StateField.define<{ tags: MessageTag[]; blocks: MessageBlock[] }>({
  create: (state) => messageTagsOf(state.doc.toString()),
  update: (value, transaction) => (transaction.docChanged ? messageTagsOf(transaction.state.doc.toString()) : value),
});

/** Each tag marked by its role, and each line of a block given its role's edge (solid, dashed or dotted). */
function decorationsOf(state: EditorState): DecorationSet {
  const { tags, blocks } = state.field(messageTags);
  const ranges: Range<Decoration>[] = [];
  for (const tag of tags) {
    ranges.push(
      Decoration.mark({
        class: `cm-message-tag cm-message-tag-${tag.role}`,
        attributes: { title: `${ROLE_NAMES[tag.role]} message ${tag.closing ? 'ends' : 'starts'}` },
      }).range(tag.from, tag.to),
    );
  }
  for (const block of blocks) {
    const first = state.doc.lineAt(block.open.from).number;
    const last = state.doc.lineAt(block.close.to).number;
    for (let number = first; number <= last; number++) {
      ranges.push(
        Decoration.line({ class: `cm-message-line cm-message-line-${block.role}` }).range(state.doc.line(number).from),
      );
    }
  }
  return Decoration.set(ranges, true);
}

const messageDecorations = StateField.define<DecorationSet>({
  create: decorationsOf,
  update: (value, transaction) => (transaction.docChanged ? decorationsOf(transaction.state) : value),
  provide: (field) => EditorView.decorations.from(field),
});

class RoleMarker extends GutterMarker {
  constructor(readonly role: MessageRole) {
    super();
  }

  eq(other: GutterMarker): boolean {
    return other instanceof RoleMarker && other.role === this.role;
  }

  toDOM(): Node {
    const label = document.createElement('span');
    label.className = `cm-role-label cm-role-label-${this.role}`;
    label.textContent = ROLE_LABELS[this.role];
    label.title = `${ROLE_NAMES[this.role]} message`;
    return label;
  }
}

const roleGutter = gutter({
  class: 'cm-role-gutter',
  lineMarker(view, line) {
    const block = view.state
      .field(messageTags)
      .blocks.find((item) => item.open.from >= line.from && item.open.from <= line.to);
    return block ? new RoleMarker(block.role) : null;
  },
  lineMarkerChange: (update) => update.docChanged,
  initialSpacer: () => new RoleMarker('assistant'),
});

/** A block folds from the end of its opening tag to its closing tag, when they are on different lines. */
const blockFolding = foldService.of((state, lineStart, lineEnd) => {
  const block = state
    .field(messageTags)
    .blocks.find((item) => item.open.from >= lineStart && item.open.from <= lineEnd);
  if (!block || block.close.from <= lineEnd) return null;
  return { from: block.open.to, to: block.close.from };
});

/** Colours that keep at least 4.5:1 contrast on their backgrounds; the edge's style and the label tell roles apart too. */
const roleTheme = EditorView.theme({
  '.cm-message-tag': { fontWeight: '700', borderRadius: '3px' },
  '.cm-message-tag-system': { backgroundColor: '#fdeedd', color: '#7a2e00' },
  '.cm-message-tag-user': { backgroundColor: '#e3eefc', color: '#0b4f9c' },
  '.cm-message-tag-assistant': { backgroundColor: '#e3f3e6', color: '#1b5e20' },
  '.cm-message-line': { paddingLeft: '8px' },
  '.cm-message-line-system': { borderLeft: '3px solid #a0522d' },
  '.cm-message-line-user': { borderLeft: '3px dashed #2952cc' },
  '.cm-message-line-assistant': { borderLeft: '3px dotted #2e7d32' },
  '.cm-role-gutter .cm-gutterElement': { padding: '0 4px', fontSize: '0.75rem' },
  '.cm-role-label': { color: '#1c2430', fontWeight: '700' },
  '.cm-foldPlaceholder': { backgroundColor: '#e4e9f5', border: '1px solid #8d96a3', color: '#1c2430' },
});

/**
 * The chat message blocks of a template (`{% system %}…{% endsystem %}`, `{% user %}`, `{% assistant %}`): their tags
 * highlighted by role, a label in the gutter where each starts, and each block foldable from the fold gutter or the
 * keyboard (Ctrl+Shift+[ folds, Ctrl+Shift+] unfolds).
 */
export function messageBlockMarks(): Extension {
  return [messageTags, messageDecorations, roleGutter, blockFolding, codeFolding(), foldGutter(), roleTheme];
}
