/** The en namespaces as one chunk: lib/i18n.ts loads only the operator's language. */
export default import.meta.glob<Record<string, unknown>>('./en/*.json', {
  eager: true,
  import: 'default',
});
