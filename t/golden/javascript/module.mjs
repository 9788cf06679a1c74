import { x } from "./x.mjs";
export default await x?.load(`${import.meta.url}`) / 2;
