/**
 * The parts of zod the base tools' schemas are built from. Imported by name, so that a bundle
 * keeps only these (about a fifth of zod) instead of all of it.
 *
 * @module
 */
export { boolean, enum, number, strictObject, string } from "zod";
