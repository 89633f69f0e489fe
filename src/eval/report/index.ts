export { renderMarkdownReport } from './render-markdown-report';
export { renderHtmlReport } from './render-html-report';
export { runLinks, type RunLinks } from './report-links';
export { failingUnits, type ReportInput } from './report-input';
export { writeReports, type WrittenReports } from './write-reports';
export { criteriaText } from './criteria-text';
