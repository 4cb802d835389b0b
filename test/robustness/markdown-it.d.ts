// The slice of markdown-it (the renderer VS Code uses for hovers) that the property tests call.
declare module 'markdown-it' {
  export default class MarkdownIt {
    constructor(options?: { html?: boolean; linkify?: boolean });
    renderInline(src: string): string;
    render(src: string): string;
  }
}
