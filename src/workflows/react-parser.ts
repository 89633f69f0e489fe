/** The pure ReAct text parser, at the path DESIGN.md names; it lives with the rest of react-text/. */
export {
  parseReAct,
  reactFormatErrors,
  reactParser,
  REACT_FORMAT_ERRORS,
  type ParsedReAct,
} from './react-text/react-parser';
