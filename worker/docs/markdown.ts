// The inline Markdown of the document's descriptions (`code`, **strong**, [text](url)) as HTML,
// so the docs page shows what the OpenAPI text means instead of its backticks. Inline only: the
// page splits paragraphs itself. Everything is escaped first; only these three forms become tags.
const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => ESCAPES[ch]!);

export function inlineMarkdown(text: string): string {
  // Code spans first, kept aside, so nothing inside them is read as markup.
  const spans: string[] = [];
  const rest = escapeHtml(text).replace(/`([^`]+)`/g, (_, code: string) => `\u0000${spans.push(`<code>${code}</code>`) - 1}\u0000`);
  return rest
    .replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>")
    // Only site-relative and http(s) links: nothing else may reach an href.
    .replace(/\[([^\]]+)\]\(((?:https?:\/\/|\/)[^)\s]*)\)/g, '<a href="$2">$1</a>')
    .replace(/\u0000(\d+)\u0000/g, (_, i: string) => spans[Number(i)]!);
}
