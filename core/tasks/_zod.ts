/**
 * The parts of zod the task tools' schemas are built from, imported by name so that a bundle
 * keeps only these.
 *
 * @module
 */
export { array, boolean, number, strictObject, string } from "zod";
