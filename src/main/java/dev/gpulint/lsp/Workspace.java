package dev.gpulint.lsp;

import org.eclipse.lsp4j.DidChangeConfigurationParams;
import org.eclipse.lsp4j.DidChangeWatchedFilesParams;
import org.eclipse.lsp4j.services.WorkspaceService;

/**
 * The workspace: a watched file that changed on the disk (a {@code .gpulint.yaml}, a rule, a manifest or evidence
 * file, changed by another program or a checkout) re-lints the open documents, as does a change of settings.
 */
final class Workspace implements WorkspaceService {
    private final LintScheduler scheduler;

    Workspace(LintScheduler scheduler) {
        this.scheduler = scheduler;
    }

    @Override
    public void didChangeWatchedFiles(DidChangeWatchedFilesParams params) {
        scheduler.request(null);
    }

    @Override
    public void didChangeConfiguration(DidChangeConfigurationParams params) {
        scheduler.request(null);
    }
}
