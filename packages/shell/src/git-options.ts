// git's subcommands as git's parse-options reads them (see option-model.ts for the notation): every
// long option is negatable with `--no-`, an unambiguous prefix names an option, and a short letter
// may stand for several options (`branch -D` is `--delete --force`). Options whose value git runs as
// a command end in `!`. Subcommands not listed here keep the plain option splitting of segment.ts.
import { type OptionModel, optionModel } from './option-model.js';

// `-h` is help unless the subcommand gives the letter a meaning (`ls-remote -h` is `--heads`).
const git = (text: string, permute = true) => optionModel(`h help ${text}`, { negatable: true, permute });

const MERGE_STRATEGY = 's|strategy= X|strategy-option= S|gpg-sign? rerere-autoupdate';
const PATHSPEC = 'pathspec-from-file= pathspec-file-nul';
const FETCH_COMMON =
  'v|verbose q|quiet all append atomic upload-pack! f|force m|multiple t|tags n j|jobs= prefetch ' +
  'p|prune P|prune-tags recurse-submodules? dry-run porcelain write-fetch-head k|keep ' +
  'progress depth= shallow-since= shallow-exclude= deepen= unshallow update-shallow ' +
  'refmap= o|server-option= 4|ipv4 6|ipv6 negotiation-tip= negotiate-only filter= auto-maintenance ' +
  'auto-gc show-forced-updates write-commit-graph set-upstream';

/** Option models by git subcommand. */
export const GIT_SUBCOMMANDS: Record<string, OptionModel> = {
  push: git(
    'v|verbose q|quiet repo= all branches mirror d|delete tags n|dry-run porcelain f|force ' +
      'force-with-lease? force-if-includes recurse-submodules= thin receive-pack|exec! u|set-upstream ' +
      'progress prune no-verify verify follow-tags signed? atomic o|push-option= 4|ipv4 6|ipv6',
  ),
  fetch: git(`${FETCH_COMMON} u|update-head-ok`),
  pull: git(
    `${FETCH_COMMON.replace(' n ', ' ').replace(' p|prune ', ' prune ')} r|rebase? n|no-stat stat ` +
      `log? signoff squash commit e|edit cleanup= ff ff-only verify-signatures autostash ` +
      `allow-unrelated-histories ${MERGE_STRATEGY}`,
  ),
  clone: git(
    'l|local no-hardlinks s|shared reference= reference-if-able= dissociate q|quiet v|verbose progress ' +
      'server-option= n|no-checkout bare sparse mirror o|origin= b|branch= revision= u|upload-pack! ' +
      'template= c|config= depth= shallow-since= shallow-exclude= single-branch tags ' +
      'recurse-submodules? shallow-submodules remote-submodules j|jobs= separate-git-dir= ref-format= ' +
      'filter= also-filter-submodules bundle-uri= reject-shallow',
  ),
  repack: git(
    'a A d k|keep-unreachable q|quiet n l f F b|write-bitmap-index depth= window= window-memory= ' +
      'max-pack-size= keep-pack= unpack-unreachable= cruft cruft-expiration= geometric= m|write-midx ' +
      'i|delta-islands threads= combine-cruft-below-size= max-cruft-size= expire-to= filter= filter-to= ' +
      'pack-kept-objects',
  ),
  'send-pack': git(
    'all dry-run force v|verbose thin atomic mirror receive-pack|exec! stateless-rpc stdin signed? ' +
      'push-option= helper-status force-with-lease? force-if-includes',
  ),
  'http-push': git('all force dry-run d D v|verbose'),
  'ls-remote': git(
    'q|quiet upload-pack|exec! t|tags b|branches h|heads refs get-url sort= exit-code symref o|server-option=',
  ),
  // `--exec` is the remote's upload-archive command, run through the shell for a local remote.
  archive: git(
    'format= l|list v|verbose prefix= o|output= worktree-attributes add-file= add-virtual-file= remote= exec!',
  ),
  init: git('q|quiet bare template= separate-git-dir= object-format= ref-format= b|initial-branch= shared?'),
  reset: git(
    `q|quiet refresh mixed soft hard merge keep recurse-submodules? p|patch N|intent-to-add ${PATHSPEC} ` +
      'U|unified= inter-hunk-context=',
  ),
  clean: git('q|quiet n|dry-run f|force i|interactive d x X e|exclude='),
  checkout: git(
    'b= B= l orphan= f|force m|merge conflict= q|quiet progress d|detach t|track? guess overlay ' +
      'overwrite-ignore ignore-other-worktrees 2|ours 3|theirs p|patch ignore-skip-worktree-bits ' +
      `recurse-submodules? U|unified= inter-hunk-context= ${PATHSPEC}`,
  ),
  switch: git(
    'c|create= C|force-create= d|detach guess f|force|discard-changes m|merge conflict= q|quiet ' +
      'progress t|track? orphan= ignore-other-worktrees recurse-submodules? overwrite-ignore',
  ),
  restore: git(
    's|source= S|staged W|worktree ignore-unmerged overlay q|quiet recurse-submodules? progress ' +
      `m|merge conflict= 2|ours 3|theirs p|patch U|unified= inter-hunk-context= ignore-skip-worktree-bits ${PATHSPEC}`,
  ),
  branch: git(
    'v|verbose q|quiet t|track? u|set-upstream-to= unset-upstream color? r|remotes contains= ' +
      'no-contains= abbrev? a|all d|delete D:delete+force m|move M:move+force c|copy C:copy+force ' +
      'l|list show-current create-reflog edit-description f|force merged? no-merged? column? sort= ' +
      'points-at= i|ignore-case recurse-submodules format= omit-empty',
  ),
  tag: git(
    'l|list n? contains= no-contains= points-at= merged? no-merged? sort= format= color? ' +
      'i|ignore-case omit-empty a|annotate s|sign u|local-user= f|force d|delete v|verify m|message= ' +
      'F|file= e|edit cleanup= create-reflog column? trailer=',
  ),
  stash: git(
    `p|patch S|staged k|keep-index u|include-untracked a|all q|quiet m|message= index ${PATHSPEC} only-untracked`,
  ),
  rm: git(`n|dry-run q|quiet cached f|force r ignore-unmatch sparse ${PATHSPEC}`),
  gc: git('aggressive auto prune? quiet force keep-largest-pack cruft max-cruft-size= expire-to= detach'),
  prune: git('n|dry-run v|verbose progress expire='),
  reflog: git(
    'expire= expire-unreachable= rewrite updateref stale-fix all single-worktree n|dry-run verbose',
  ),
  'update-ref': git('m= d|delete no-deref stdin z create-reflog'),
  'symbolic-ref': git('q|quiet d|delete m= short recurse'),
  'read-tree': git(
    'index-output= m reset u i n|dry-run v trivial aggressive prefix= exclude-per-directory= ' +
      'sparse-checkout empty q|quiet recurse-submodules?',
  ),
  'checkout-index': git(
    'u|index a|all f|force n|no-create q|quiet z stdin temp prefix= stage= ignore-skip-worktree-bits',
  ),
  worktree: git(
    'f|force d|detach checkout lock reason= q|quiet track guess-remote b= B= orphan porcelain z ' +
      'v|verbose expire= n|dry-run relative-paths',
  ),
  rebase: git(
    'onto= keep-base verify q|quiet v|verbose n|no-stat stat signoff committer-date-is-author-date ' +
      'reset-author-date ignore-whitespace whitespace= ignore-date f|force-rebase|no-ff C= continue ' +
      'skip edit-todo show-current-patch abort quit m|merge strategy= X|strategy-option= S|gpg-sign? ' +
      'autostash fork-point i|interactive r|rebase-merges? empty= autosquash reschedule-failed-exec ' +
      'update-refs x|exec! root apply s= k|keep-empty allow-empty-message E',
  ),
  merge: git(
    'n stat summary log? squash commit e|edit cleanup= ff ff-only verify-signatures m= F|file= ' +
      `into-name= v|verbose q|quiet abort quit continue allow-unrelated-histories progress autostash ` +
      `overwrite-ignore signoff verify ${MERGE_STRATEGY}`,
  ),
  'cherry-pick': git(
    'quit continue abort skip cleanup= n|no-commit e|edit s|signoff m|mainline= ff allow-empty ' +
      `allow-empty-message empty= keep-redundant-commits x strategy= X|strategy-option= S|gpg-sign? rerere-autoupdate`,
  ),
  revert: git(
    'quit continue abort skip cleanup= n|no-commit e|edit s|signoff m|mainline= reference ' +
      'strategy= X|strategy-option= S|gpg-sign? rerere-autoupdate',
  ),
  am: git(
    'i|interactive b 3|3way quoting q|quiet s|signoff k|keep keep-non-patch m|message-id keep-cr ' +
      'c|scissors whitespace= ignore-space-change ignore-whitespace directory= exclude= include= C= p= ' +
      'patch-format= reject resolvemsg= continue|r|resolved skip abort quit show-current-patch? ' +
      'allow-empty committer-date-is-author-date ignore-date rerere-autoupdate S|gpg-sign? empty=',
  ),
  commit: git(
    'q|quiet v|verbose F|file= author= date= m|message= c|reedit-message= C|reuse-message= fixup= ' +
      'squash= reset-author s|signoff trailer= t|template= e|edit cleanup= status u|untracked-files? ' +
      'a|all i|include o|only p|patch interactive n|no-verify verify amend post-rewrite dry-run short ' +
      `branch ahead-behind porcelain long z|null allow-empty allow-empty-message S|gpg-sign? ${PATHSPEC}`,
  ),
  config: git(
    'global system local worktree f|file= blob= get get-all get-regexp get-urlmatch replace-all add ' +
      'unset unset-all rename-section remove-section l|list fixed-value e|edit get-color get-colorbool ' +
      't|type= bool int bool-or-int bool-or-str path expiry-date z|null name-only includes ' +
      'show-origin show-scope default= comment= all regexp value= url= append',
    // git config stops at its first operand: `git config k -1` sets k to -1.
    false,
  ),
  difftool: git(
    'd|dir-diff y|no-prompt prompt rotate-to= skip-to= t|tool= tool-help symlinks x|extcmd! g|gui trust-exit-code',
  ),
  remote: git('v|verbose t= m= f tags mirror? push add delete'),
  replace: git('l|list d|delete edit graft convert-graft-file raw f|force format='),
  submodule: git(
    'q|quiet recursive init remote N|no-fetch f|force b|branch= name= reference= depth= cached files ' +
      'summary-limit= checkout rebase merge single-branch jobs= recommend-shallow progress',
  ),
};
