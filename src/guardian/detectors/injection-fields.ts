/*
 * Twenty-fourth round (issue 24, "inj24"): a record's field addressed to the model that reads it. A tool's result or
 * an agent's reply is data; a field of it whose name says its value is a message for the reading model ("note_for_agent",
 * "instructions_to_the_caller", "ai_instruction", "llm_hint", "nota_para_el_agente") is the record speaking to the model,
 * the structured equivalent of a line that opens with "agent:". So the value is read under that head — as a vocative —
 * and judged as usual: it still has to ask for something (approve, delete, pay, send, tell the user a given thing),
 * but it no longer has to name its reader itself. Unlike `directiveField` (injection-concealed.ts), the value is not
 * weighed as hidden text: a note is something a reader may see.
 *
 * Names read, in lower-case parts split at `_`, `-`, `.`, spaces and camelCase humps:
 *
 * - **addressed** (`"to"`): a message word (note, instruction, hint, message, memo, directive, guidance, action, step,
 *   task, todo — and the Romance, German and Dutch forms) followed within three parts by "for"/"to" (para, pour, für,
 *   voor, per, an) and a reader (agent, ai, assistant, llm, model, bot, caller, orchestrator, copilot, gpt, system):
 *   `note_for_calling_agent`, `message_to_model`, `hinweis_fuer_agent`.
 * - **prefixed** (`"machine"`): a machine reader first (ai, llm, assistant, gpt, copilot, bot, model) and an
 *   instruction word (instruction, hint, directive, guidance): `ai_instruction`, `llmHint`; plural "instructions"
 *   there is also an operator's standing setting for its own assistant, graded as `"agent"`.
 *
 * Left alone: names where "agent" is the author or a human role ("agent_notes", "agent_message" in a support ticket,
 * "reviewer_instructions"), settings of one's own assistant that do not address the reader by place
 * ("agent_instructions" stays with injection-concealed.ts), and values that ask nothing (a preference, a status, a
 * reminder in the user's own task: "book the second slot if possible" scores below the threshold). A field addressed to
 * a human-capable reader ("agent" in the `to` form) does not fire on a dictated message to the user alone — a support
 * agent's note says what to tell the customer — only a machine reader's does (`deceptionCounts`).
 *
 * Linear: a bounded split of the name (80 characters) and set lookups; no regular expressions.
 */

const MESSAGE_WORDS = new Set([
  "note", "notes", "instruction", "instructions", "hint", "hints", "message", "messages", "memo", "directive", "directives",
  "guidance", "action", "actions", "step", "steps", "task", "tasks", "todo", "todos", "order", "orders", "request",
  // es, pt, fr, it, de, nl
  "nota", "notas", "instruccion", "instrucciones", "instrução", "instruções", "instrucao", "instrucoes", "mensaje", "mensagem",
  "remarque", "consigne", "consignes", "istruzione", "istruzioni", "messaggio", "hinweis", "hinweise", "anweisung",
  "anweisungen", "notiz", "nachricht", "opmerking", "instructie", "instructies", "bericht",
]);
const TO_WORDS = new Set(["for", "to", "para", "pour", "per", "für", "fuer", "an", "voor", "aan", "al", "au", "alla", "ao"]);
/** Readers that are the model or an agent program (or, for "agent", a person in a support desk). */
const READERS = new Set(["agent", "agents", "ai", "assistant", "llm", "model", "bot", "caller", "orchestrator", "copilot", "gpt", "system", "agente", "assistente", "asistente", "modelo", "modello", "modèle", "ki", "ia", "modell"]);
/** Readers that can only be a program. */
const MACHINE = new Set(["ai", "assistant", "llm", "model", "bot", "caller", "orchestrator", "copilot", "gpt", "assistente", "asistente", "modelo", "modello", "modèle", "ki", "ia", "modell"]);
const MACHINE_FIRST = new Set(["ai", "llm", "assistant", "gpt", "copilot", "bot", "model"]);
const INSTRUCTION_WORDS = new Set(["instruction", "instructions", "hint", "hints", "directive", "directives", "guidance"]);
/** Words between a message word and its preposition or reader: "next_steps_for_calling_agent", "note_for_the_ai". */
const MODIFIERS = new Set(["the", "calling", "requesting", "downstream", "upstream", "receiving", "client", "next", "your", "any", "il", "el", "la", "le", "o", "der", "den", "die", "de"]);

/** A field name split into lower-case parts at `_`, `-`, `.`, spaces and camelCase humps (at most 80 characters). */
export function fieldParts(name: string): string[] {
  const parts: string[] = [];
  let w = "";
  for (let i = 0; i < name.length && i < 80; i++) {
    const ch = name[i] as string;
    if (ch === "_" || ch === "-" || ch === "." || ch === " " || ch === ":") {
      if (w) parts.push(w.toLowerCase());
      w = "";
      continue;
    }
    const upper = ch >= "A" && ch <= "Z";
    const prev = w[w.length - 1];
    if (upper && prev !== undefined && !(prev >= "A" && prev <= "Z")) {
      parts.push(w.toLowerCase());
      w = "";
    }
    w += ch;
  }
  if (w) parts.push(w.toLowerCase());
  return parts;
}

/** How a field's name addresses the model that reads it: "machine" (only a program reads it), "agent" (an agent, who may be a person), or null. */
export function addressedField(name: unknown): "machine" | "agent" | null {
  if (typeof name !== "string" || name.length < 5 || name.length > 80) return null;
  // Field names repeat across a large result: each is read once (a bounded table).
  const known = seen.get(name);
  if (known !== undefined) return known;
  const grade = gradeOf(name);
  if (seen.size >= 1024) seen.clear();
  seen.set(name, grade);
  return grade;
}
const seen = new Map<string, "machine" | "agent" | null>();

function gradeOf(name: string): "machine" | "agent" | null {
  const p = fieldParts(name).filter((x) => x !== "x"); // a vendor extension's "x-"
  if (p.length < 2 || p.length > 8) return null;
  // A machine reader first, an instruction word next: "ai_instruction", "llmHint", "assistant_guidance". Plural
  // "instructions" after a reader is also how an operator's standing setting for its own assistant is named
  // ("ai_instructions": "tell customers about the sale"): a message dictated to the user does not count there.
  if (MACHINE_FIRST.has(p[0] as string) && INSTRUCTION_WORDS.has(p[1] as string) && p.length <= 3) return p[1] === "instructions" ? "agent" : "machine";
  // A message word, "for"/"to", a reader: "note_for_agent", "instructions_to_the_calling_model".
  for (let i = 0; i + 2 < p.length; i++) {
    if (!MESSAGE_WORDS.has(p[i] as string) || !TO_WORDS.has(p[i + 1] as string)) continue;
    let j = i + 2;
    while (j < p.length && j < i + 5 && MODIFIERS.has(p[j] as string)) j++;
    const reader = p[j];
    if (reader === undefined || !READERS.has(reader)) continue;
    // "calling agent", "requesting agent": the reader by its place in the exchange, a program.
    const placed = p.slice(i + 2, j).some((x) => x === "calling" || x === "requesting" || x === "downstream" || x === "upstream" || x === "receiving");
    return MACHINE.has(reader) || placed ? "machine" : "agent";
  }
  return null;
}

/** Whether a finding of `kind` on an addressed field counts for a reader of this grade (see the header). */
export function deceptionCounts(grade: "machine" | "agent", kind: string): boolean {
  return grade === "machine" || kind !== "deception";
}
