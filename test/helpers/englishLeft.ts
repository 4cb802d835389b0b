// English left in Chinese output (issue #29): what a zh-cn text still says in English, once what legitimately stays
// English is taken out. docs/localization.md: rule codes, Kubernetes kinds, field paths, DNS names, label keys and
// values, file paths, URLs and commands are written as they are in every language, and a tool's own words (the API
// server's reason, the YAML parser's, helm's and Kustomize's output) are quoted as the tool wrote them inside a
// translated frame. Each stripping rule below is one of those cases, made as narrow as the frame allows; whatever
// English is left in three or more words in a row is a sentence nobody translated.

/** Cut out: replaced by a mark no word run crosses (so the words on either side never join into one run). */
const cut = ' \u0000 ';

/**
 * The API server's reason for a field (api-validation, workload-selector-mismatch): `spec.ports[0].name: Invalid
 * value: "x": a lowercase RFC 1123 label must …`, printed as the API server prints it (k8s.io/apimachinery
 * field.Error), up to the translated explanation (an em dash, a Chinese character or a full-width mark).
 */
const apiServerReason =
  /\b(?:Required value|Invalid value|Unsupported value|Duplicate value|Forbidden|Too long|Too many|Not found)(?::|——)[^\u2014\u3000-\u303f\u4e00-\u9fff\uff00-\uffef\n]*/g;

/**
 * A tool's output after the translated frame that says so: helm's (`helm 的输出如下：` then helm's lines, up to the
 * end of the message: a blank line in the text output), Kustomize's, and the YAML parser's (`（解析器原文）：`, to the
 * end of the line).
 */
const toolOutput = [/(?:helm|Kustomize) 的输出如下：[\s\S]*?(?=\n[ \t]*\n|$(?![\s\S]))/g, /（解析器原文）：[^\n]*/g];

/** Code spans and fenced blocks of Markdown (hovers) and of messages that quote YAML or commands in backticks. */
const codeSpans = /(`+)[\s\S]*?\1/g;

/** Quoted values: names, label values, a CRD's validation message quoted as the CRD says it. */
const quoted = [/"(?:[^"\\\n]|\\.)*"/g, /“[^”\n]*”/g, /(?<![A-Za-z])'[^'\n]*'(?![A-Za-z])/g];

/** Markdown link targets (`](command:kubeNetlens.traceService?…)`) and URLs. */
const links = [/\]\([^)\s]*\)/g, /\b[a-z][a-z0-9+.-]*:\/\/[^\s）)，。]+/gi];

/**
 * Tokens that are names rather than words: with a `/`, `.`, `_`, `=`, `*`, `$`, `@`, `{`, `<` or a digit inside (file
 * paths, field paths, DNS names, images, label pairs, placeholders), with an inner hyphen (rule codes, names such as
 * `kube-proxy`, flags), camelCase or with an inner capital (field names, kinds such as StatefulSet, reasons such as
 * NoMatchingListenerHostname), all capitals (TCP, DNS, SRV), or a flag (`--lang`).
 */
const nameTokens = [
  /[^\s，。；：、（）()]*[A-Za-z0-9\]][/._=*$@{<:][^\s，。；：、（）()]*[A-Za-z0-9*}>\]][^\s，。；：、（）()]*/g,
  /(?<![\w-])--?[a-z][\w-]*/g,
  /\b[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+\b/g,
  /\b[a-z]+[A-Z][A-Za-z0-9]*\b/g,
  /\b[A-Z][a-z0-9]*[A-Z][A-Za-z0-9]*\b/g,
  /\b[A-Z]{2,}[a-z]?\b/g,
  /\b\w*\d\w*\b/g,
];

/**
 * Kinds and product names that are written in English in Chinese text (the glossary's `keep` terms and the kinds the
 * zh-cn Kubernetes documentation leaves untranslated, the tools by their names).
 */
const keptWords =
  /\b(?:Service|Services|Pod|Pods|Ingress|Ingresses|Endpoints|Gateway|Gateways|Secret|Secrets|Job|Jobs|Namespace|Node|Sidecar|Telemetry|Helm|Kustomize|Kubernetes|Istio|Calico|Cilium|Prometheus|Chart|Lease)\b/g;

/**
 * Fixed English the product keeps on purpose in every language: np-guard's verdict words (docs/localization.md:
 * `All Connections`), and the severity words and `note:` marker of the text output, which problem matchers read.
 */
const fixedEnglish = [/\bAll Connections\b/g, /^(?:\S+:\d+:\d+: )?(?:error|warning|info|hint|information)\b/gm, /\bnote:/g];

/** What is left of `text` once everything that legitimately stays English is cut out. */
export function withoutKeptEnglish(text: string): string {
  let t = text;
  for (const re of [apiServerReason, ...toolOutput, codeSpans, ...links, ...quoted, ...fixedEnglish, ...nameTokens, keptWords]) t = t.replace(re, cut);
  return t;
}

/** Every run of three or more English words in a row (single spaces between them) left in a Chinese text. */
export function englishLeft(text: string): string[] {
  return [...withoutKeptEnglish(text).matchAll(/\b[A-Za-z][A-Za-z']*(?: [A-Za-z][A-Za-z']*){2,}\b/g)].map((m) => m[0]);
}

/** The runs of several texts, each with where it came from, once per distinct run and place. */
export function englishRunsIn(texts: Iterable<{ readonly where: string; readonly text: string }>): string[] {
  const out = new Set<string>();
  for (const { where, text } of texts)
    for (const run of englishLeft(text)) out.add(`${where}: «${run}» in: ${text.length > 300 ? `${text.slice(0, 300)}…` : text}`);
  return [...out];
}
