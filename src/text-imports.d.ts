// Files the bundler embeds as text (`import x from "<file>" with { type: "text" }`): see src/config/examples.ts.
declare module "*.md" {
  const text: string;
  export default text;
}
declare module "*/pre-push" {
  const text: string;
  export default text;
}
