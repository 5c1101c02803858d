def log = new File(basedir, 'build.log').text
// console paths are absolute, as maven-compiler and checkstyle print them
assert log.contains('[ERROR] ' + new File(basedir, 'manifests/job.yaml').canonicalPath + ':6:7: error: tp=16 spans 2 nodes: ranks 0-15 sit on hgx-0 (0-7) and hgx-1 (8-15)')
assert log.contains('[WARNING] ' + new File(basedir, 'manifests/cluster.yaml').canonicalPath + ':3:17: warning: cluster \'roce\' runs RoCE (fabric type roce) but states no ECN')
assert log.contains('gpulint found 2 findings at or above warning')
def sarif = new File(basedir, 'target/gpulint.sarif').text
assert sarif.contains('"ruleId" : "PAR002"')
// each module's own category, so code scanning keeps each module's alerts; the version is the core's, as the CLI's
assert sarif.contains('"id" : "gpulint/check-fail/"')
assert sarif =~ /"version" : "\d+\.\d+\.\d+-SNAPSHOT"/
// SARIF paths are relative to the project root: the git top level above this IT project (gpulint's own
// checkout) or, outside a repository, the project's basedir
assert sarif =~ /"uri" : "(maven-plugin\/target\/it\/check-fail\/)?manifests\/job.yaml",\s*"uriBaseId" : "%SRCROOT%"/
return true
