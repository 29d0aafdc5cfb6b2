module.exports = {
	clientCertificates: {
		'client.badssl.com': {
			pfx: './variables/badssl.com-client.p12',
			passphrase: 'badssl.com'
		}
	}
}