/** The zh-CN namespaces as one chunk: lib/i18n.ts loads only the operator's language. */
export default import.meta.glob<Record<string, unknown>>('./zh-CN/*.json', {
  eager: true,
  import: 'default',
});
