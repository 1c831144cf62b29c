import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/", "node_modules/", "coverage/", "results/"] },
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-restricted-syntax": ["error", { selector: "ExportAllDeclaration", message: "Export by name, not export *." }],
    },
  },
  {
    // The console renders wire data: text only, never parsed as HTML (docs/console.md, Security).
    files: ["console/**/*.ts"],
    rules: {
      "no-restricted-properties": [
        "error",
        ...["innerHTML", "outerHTML", "insertAdjacentHTML", "write", "writeln", "createContextualFragment", "setHTMLUnsafe"].map((property) => ({ property, message: "wire data is text: build elements with h() from dom.ts" })),
      ],
    },
  },
);
