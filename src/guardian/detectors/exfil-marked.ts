/*
 * (Fifteenth round, "exf15") A document a court, a records office or counsel marked as not to be handed on: a path
 * with a `sealed`, `under-seal`, `unredacted` or `privileged` folder, or a file so named (`…_unredacted.zip`,
 * `…-under-seal.pdf`, `attorney-client-privileged…`). The markings, like "confidential", say what the document is
 * wherever it sits; `sealed` counts only as a whole folder name (`sealed-bearings-catalogue.pdf` is a product).
 */
const MARKED_FOLDER = /(?:^|[/\\])(?:sealed|under[_ -]seal|unredacted|privileged)[/\\]/i;
const MARKED_NAME = /(?:^|[/\\_ .-])(?:unredacted|under[_ -]seal|attorney[_ -]client(?:[_ -]privileged?)?|privileged[_ -](?:and[_ -])?confidential)(?:[_ .-]|$)/i;

export function markedDocument(path: string): boolean {
  if (path.length > 1024) return false;
  return MARKED_FOLDER.test(path) || MARKED_NAME.test(path);
}
