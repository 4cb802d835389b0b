// Placeholders a tool fills in before the YAML is applied: envsubst (`${VAR}`, `${VAR:-default}`, `$VAR`) and
// template markers (`{{ .Values.x }}`, `{{shard}}`, and `<< Name >>` of a Go template whose delimiters are `<<`
// and `>>`; never YAML's merge key `<<:`, which has no closing `>>`). A field that holds one is unknown (semantics §9): it is not
// validated, and no DNS name or lookup is built from it.

const pattern = /\$\{[A-Za-z_][A-Za-z0-9_]*(?:[:?+=-][^}]*)?\}|\{\{|<<\s*\.?[A-Za-z_][\w.]*\s*>>|(?:^|[^$\w(])\$[A-Z_][A-Z0-9_]*\b/;

export function hasPlaceholder(text: string): boolean {
  return pattern.test(text);
}

/** A bare upper-case word (`PORT`, `CONTAINER_IMAGE`): what documentation writes for "put your value here". */
const capsWord = /^[A-Z][A-Z0-9_]{2,}$/;

/** An image written as such a word: no image reference is upper-case, so the file is a template to fill in. */
const capsImage = /^[ \t]*(?:-[ \t]+)?image:[ \t]*["']?[A-Z][A-Z0-9_]{2,}["']?[ \t]*$/m;

/**
 * Whether `value` (as written, unquoted) is a word a person replaces before applying the file, by evidence of the
 * file itself (semantics §9.5, templates): an upper-case word where the API wants a number or a lower-case name,
 * in a file whose image is such a word too (`image: CONTAINER_IMAGE`), or that writes the same word as another
 * value (`containerPort: PORT` and `port: PORT`). Validation stays quiet on it: the file is not applied as written.
 */
export function isTemplateWord(value: string, fileText: string): boolean {
  const word = value.replace(/^(["'])(.*)\1$/, '$2');
  if (!capsWord.test(word)) return false;
  if (capsImage.test(fileText)) return true;
  const asValue = new RegExp(`:[ \\t]*["']?${word}["']?[ \\t]*(?:#.*)?$`, 'gm');
  let n = 0;
  while (asValue.exec(fileText) && ++n < 2);
  return n >= 2;
}
