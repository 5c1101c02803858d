package dev.gpulint.lsp;

import org.eclipse.lsp4j.DidChangeConfigurationParams;
import org.eclipse.lsp4j.DidChangeWatchedFilesParams;
import org.eclipse.lsp4j.FileChangeType;
import org.eclipse.lsp4j.FileEvent;
import org.eclipse.lsp4j.services.WorkspaceService;

/**
 * The workspace: a watched file that changed on the disk (a {@code .gpulint.yaml}, a rule, a manifest or evidence
 * file, changed by another program or a checkout) re-lints the open documents, as does a change of settings; the
 * projects' cluster index reads again what changed ({@link dev.gpulint.lint.ClusterIndex}).
 */
final class Workspace implements WorkspaceService {
    private final LintScheduler scheduler;
    private final dev.gpulint.lint.ClusterIndex clusters;

    Workspace(LintScheduler scheduler, dev.gpulint.lint.ClusterIndex clusters) {
        this.scheduler = scheduler;
        this.clusters = clusters;
    }

    @Override
    public void didChangeWatchedFiles(DidChangeWatchedFilesParams params) {
        if (params.getChanges() == null) {
            clusters.clear();
        } else {
            for (FileEvent e : params.getChanges()) {
                java.nio.file.Path p = e.getUri() == null ? null : OpenDocuments.path(e.getUri());
                if (p == null) clusters.clear();
                else if (e.getType() == FileChangeType.Changed) clusters.changed(p);
                else clusters.createdOrDeleted(p);
            }
        }
        scheduler.request(null);
    }

    @Override
    public void didChangeConfiguration(DidChangeConfigurationParams params) {
        clusters.clear();
        scheduler.request(null);
    }
}
