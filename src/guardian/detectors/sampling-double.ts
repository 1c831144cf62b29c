/*
 * Twenty-first round ("cps21"): **two stories, one of them for the reader** (`deceive`, sampling prompts). What makes
 * an answer a deception in any domain is not its subject but its shape: the model is given a version for the person
 * it answers and another for what it really does, and the person is kept from the difference.
 *
 * - **A denial prepared for the person who asks**: a condition on the reader *asking a question* followed by a verb
 *   that contradicts a statement ("if he asks, deny it"), in the languages the English check (sampling-aims.ts,
 *   COVER) did not read: Polish, Spanish, Portuguese, French, Italian, German, Dutch. The question verb is the
 *   asking of a question (pregunta, zapyta, fragt), not a request (pide, prosi, bittet), and the denial contradicts
 *   ("zaprzecz", "niégalo", "leugne es ab"), not refuses: "if he asks for a refund, decline" is a policy.
 * - **A told story undone by the real act**: "tell the user X, but actually / in reality / secretly do Y", in a unit
 *   that also keeps something from the reader ("never reveal", "do not mention", "without telling"). A prompt that says
 *   "tell the user the build passed, but actually check the logs" hides nothing.
 *
 * Bounded regexes over one unit (its first 2,000 characters); no nested quantifiers.
 */

const DENY_ON_QUESTION =
  /(?<![\p{L}])(?:(?:jeśli|jeżeli|gdy|kiedy|jak)\s{1,3}(?:\p{L}{1,20}\s{1,3}){0,2}(?:zapyta|zapytają|spyta|spytają|dopyta)\p{L}{0,3}[^.;!?\n]{0,40}?(?<![\p{L}])zaprzecz\p{L}{0,3}|si\s{1,3}(?:\p{L}{1,20}\s{1,3}){0,2}(?:pregunta|preguntan|preguntara|pregunte|demande|demandent|questionne)\p{L}{0,2}[^.;!?\n]{0,40}?(?<![\p{L}])(?:niégalo|niéguelo|niega|niegue|niéguese|nie|niez|nie-le|niez-le|démens|démentez)(?![\p{L}])|s'(?:il|ils|elle|elles)\s{1,3}(?:\p{L}{1,20}\s{1,3}){0,1}demand\p{L}{0,3}[^.;!?\n]{0,40}?(?<![\p{L}])(?:nie|niez|nie-le|niez-le|démens|démentez)(?![\p{L}])|se\s{1,3}(?:\p{L}{1,20}\s{1,3}){0,2}(?:perguntar|perguntarem|pergunta|perguntam|chiede|chiedono|domanda|domandano)[^.;!?\n]{0,40}?(?<![\p{L}])(?:negue|nega|neguem|negalo|negala|neghi)(?![\p{L}])|(?:wenn|falls|sollte)\s{1,3}(?:\p{L}{1,20}\s{1,3}){0,6}(?:fragt|fragen|nachfragt|nachfragen)[^.;!?\n]{0,40}?(?<![\p{L}])(?:leugne|leugnen|bestreite|bestreiten|streite|streiten)(?![\p{L}])|(?:als|wanneer|indien)\s{1,3}(?:\p{L}{1,20}\s{1,3}){0,6}(?:vraagt|vragen|navraagt)[^.;!?\n]{0,40}?(?<![\p{L}])(?:ontken|ontkennen|ontkent)(?![\p{L}]))/iu;

const TOLD_THEN_UNDONE =
  /\b(?:tell|say\s{1,3}to|assure|inform|reassure|show)\s{1,3}(?:the\s{1,3}|your\s{1,3}|our\s{1,3})?[\w-]{1,24}\b[^.;\n]{0,100}?\bbut\s{1,3}(?:actually|secretly|really|quietly|covertly|in\s{1,3}(?:reality|fact|truth|practice))\b/i;
const KEPT_FROM_READER =
  /\b(?:never|do\s{1,3}not|don't|must\s{1,3}not|without)\s{1,3}(?:ever\s{1,3})?(?:reveal\w{0,3}|mention\w{0,3}|tell\w{0,3}|telling|disclos\w{1,3}|show\w{0,3}|let(?:ting)?\s{1,3}\w{1,12}\s{1,3}know|admit\w{0,3})\b/i;

/** Whether a unit of a sampling prompt gives the reader one story and the act another (see above). */
export function doubleStory(unit: string): boolean {
  const u = unit.length > 2000 ? unit.slice(0, 2000) : unit;
  if (DENY_ON_QUESTION.test(u)) return true;
  return TOLD_THEN_UNDONE.test(u) && KEPT_FROM_READER.test(u);
}
