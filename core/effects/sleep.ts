/** The loop's wait between model attempts: the log's abortable sleep, as an effect. */
export { abortableSleep } from "../../events/abortable_sleep.ts";
