/**
 * The parts of zod the todo_write schema is built from, imported by name so that a bundle keeps
 * only these.
 *
 * @module
 */
export { array, enum, strictObject, string } from "zod";
