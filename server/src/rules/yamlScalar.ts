// How to write a string into YAML so that it reads back as the same string (not a number, boolean or null).

const plain = /^[A-Za-z0-9_][A-Za-z0-9_./-]*$/;
const reserved = /^(true|false|yes|no|on|off|y|n|null|~)$/i;
const numeric = /^[-+]?(\d[\d_]*(\.\d*)?([eE][-+]?\d+)?|\.\d+|0x[\da-fA-F]+|0o[0-7]+|\.inf|\.nan)$/i;

export function yamlScalar(value: string): string {
  if (plain.test(value) && !reserved.test(value) && !numeric.test(value)) return value;
  return JSON.stringify(value);
}
