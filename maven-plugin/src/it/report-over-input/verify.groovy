def log = new File(basedir, 'build.log').text
def manifest = new File(basedir, 'manifests/cluster.yaml')
assert log.contains('gpulint: will not write the SARIF report (sarifFile) ' + manifest.path + ' over an input: it is an input of this run (manifests/cluster.yaml)')
assert manifest.text.startsWith('kind: cluster\nname: roce\n')
assert !log.contains('BUILD SUCCESS')
return true
