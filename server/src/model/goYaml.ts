// The yaml library's lexer with go-yaml's leniency where the library is stricter than the tools users run
// (semantics §9.5: YAML that kubectl and kustomize accept is read).
//
// One difference matters for manifests: a quoted scalar ("…" or '…') in block context may continue on lines at any
// indentation in go-yaml (the library kubectl, kustomize's kyaml and helm read YAML with), also at its key's column or
// left of it, as older controller-gen wrote CRD descriptions:
//
//     description: "A long text
//     that continues here"
//
// The yaml library cuts such a scalar at the first line indented no deeper than its parent and reports a missing
// quote. Here, while it scans a quoted scalar for its continuation lines, the lexer is told that no indentation is
// required, which is its own rule at the top level of a document: only a document marker (`---`, `...`) at the start
// of a line ends the scalar there, and go-yaml rejects that text too. Everything else is the library's own reading.
// test/model/fastYaml.test.ts compares the result with what kubectl reads from the same texts.

import { Lexer, Parser, type CST } from 'yaml';

/** The parts of the library's Lexer this leans on (yaml 2.x: not in its public types). */
interface QuotedScalarLexer {
  indentNext: number;
  parseQuotedScalar(): Generator<string, string>;
}

/** A Lexer that reads multi-line quoted scalars as go-yaml does. */
export function goYamlLexer(): Lexer {
  const lexer = new Lexer();
  const inner = lexer as unknown as QuotedScalarLexer;
  const quoted = inner.parseQuotedScalar;
  // another version of the library, without these: its own reading, strict as it is
  if (typeof quoted !== 'function' || typeof inner.indentNext !== 'number') return lexer;
  inner.parseQuotedScalar = function* (this: QuotedScalarLexer): Generator<string, string> {
    // The scalar's extent is decided before its first lexeme is handed out: only that first step runs lenient.
    const indentNext = this.indentNext;
    this.indentNext = 0;
    const steps = quoted.call(this);
    let step: IteratorResult<string, string>;
    try {
      step = steps.next();
    } finally {
      this.indentNext = indentNext;
    }
    while (!step.done) {
      yield step.value;
      step = steps.next();
    }
    return step.value;
  };
  return lexer;
}

/** `new Parser().parse(text)`, with the lexer of goYamlLexer. */
export function* goYamlTokens(text: string): Generator<CST.Token, void> {
  const parser = new Parser();
  for (const lexeme of goYamlLexer().lex(text)) yield* parser.next(lexeme);
  yield* parser.end();
}
