// Placeholders a tool fills in before the YAML is applied: envsubst (`${VAR}`, `${VAR:-default}`, `$VAR`) and
// template markers (`{{ .Values.x }}`, `{{shard}}`). A field that holds one is unknown (semantics §9): it is not
// validated, and no DNS name or lookup is built from it.

const pattern = /\$\{[A-Za-z_][A-Za-z0-9_]*(?:[:?+=-][^}]*)?\}|\{\{|(?:^|[^$\w(])\$[A-Z_][A-Z0-9_]*\b/;

export function hasPlaceholder(text: string): boolean {
  return pattern.test(text);
}
