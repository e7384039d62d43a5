// `pnpm --filter @fb/readme-snippets check`: typecheck every README snippet and list what fails.
import { checkSnippets, formatProblems, publishedReadmes } from './snippets.mjs';

const { checked, skipped, problems } = checkSnippets(publishedReadmes());
if (problems.length > 0) console.error(formatProblems(problems));
console.log(`${checked} README snippets typechecked, ${skipped} marked partial, ${problems.length} problems`);
process.exitCode = problems.length > 0 ? 1 : 0;
