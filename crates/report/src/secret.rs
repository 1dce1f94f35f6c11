//! The kinds of secret the redaction finds: their ids are a public contract.

use serde::Serialize;

/// What kind of secret a hit is. The ids are a public contract (JSON, the app, tokens).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SecretKind {
    /// A value under a Secret's `data` or `stringData`.
    SecretData,
    /// A Secret's `.dockerconfigjson` / `.dockercfg` (registry credentials).
    DockerConfig,
    /// A kubeconfig user's `client-key-data`, `token`, `password`, `id-token`, ...
    KubeconfigCredential,
    /// `Authorization: Bearer ...` and bearer tokens in command lines.
    BearerToken,
    /// `Authorization: Basic ...` (base64 of `user:password`).
    BasicAuth,
    /// A JSON Web Token (`eyJ....eyJ....sig`).
    Jwt,
    /// A PEM private key block.
    PrivateKey,
    /// A token or key of a known service, found by a rule of gitleaks' rule set or of the
    /// redaction's own few token families (a hit names its rule: `github-pat`, `aws-access-token`).
    Token,
    /// The password of a `scheme://user:password@host` URL.
    UrlCredential,
    /// A password or key inside a database URL or a `Key=value;` connection string.
    ConnectionString,
    /// The value of an environment variable or field named like a secret (`DB_PASSWORD: hunter2`).
    EnvSecret,
    /// An annotation named like a secret, or a secret inside `last-applied-configuration`.
    AnnotationSecret,
    /// Opt-in: an IPv4 address.
    IpAddress,
    /// Opt-in: a host name in an internal domain (`.internal`, `.local`, `.svc`, `.corp`, ...).
    InternalHostname,
    /// Opt-in: an e-mail address.
    Email,
}

impl SecretKind {
    pub const ALL: [SecretKind; 15] = [
        SecretKind::SecretData,
        SecretKind::DockerConfig,
        SecretKind::KubeconfigCredential,
        SecretKind::BearerToken,
        SecretKind::BasicAuth,
        SecretKind::Jwt,
        SecretKind::PrivateKey,
        SecretKind::Token,
        SecretKind::UrlCredential,
        SecretKind::ConnectionString,
        SecretKind::EnvSecret,
        SecretKind::AnnotationSecret,
        SecretKind::IpAddress,
        SecretKind::InternalHostname,
        SecretKind::Email,
    ];

    /// Stable kebab-case id, as used in tokens and JSON.
    pub fn id(self) -> &'static str {
        match self {
            SecretKind::SecretData => "secret-data",
            SecretKind::DockerConfig => "docker-config",
            SecretKind::KubeconfigCredential => "kubeconfig-credential",
            SecretKind::BearerToken => "bearer-token",
            SecretKind::BasicAuth => "basic-auth",
            SecretKind::Jwt => "jwt",
            SecretKind::PrivateKey => "private-key",
            SecretKind::Token => "token",
            SecretKind::UrlCredential => "url-credential",
            SecretKind::ConnectionString => "connection-string",
            SecretKind::EnvSecret => "env-secret",
            SecretKind::AnnotationSecret => "annotation-secret",
            SecretKind::IpAddress => "ip-address",
            SecretKind::InternalHostname => "internal-hostname",
            SecretKind::Email => "email",
        }
    }

    /// A short phrase for people ("a Secret's data value").
    pub fn title(self) -> &'static str {
        match self {
            SecretKind::SecretData => "Secret data value",
            SecretKind::DockerConfig => "registry credentials (.dockerconfigjson)",
            SecretKind::KubeconfigCredential => "kubeconfig credential",
            SecretKind::BearerToken => "bearer token",
            SecretKind::BasicAuth => "basic auth header",
            SecretKind::Jwt => "JSON Web Token",
            SecretKind::PrivateKey => "PEM private key",
            SecretKind::Token => "token of a known service",
            SecretKind::UrlCredential => "password in a URL",
            SecretKind::ConnectionString => "password in a connection string",
            SecretKind::EnvSecret => "secret-named value (env, config)",
            SecretKind::AnnotationSecret => "secret in an annotation",
            SecretKind::IpAddress => "IP address",
            SecretKind::InternalHostname => "internal host name",
            SecretKind::Email => "e-mail address",
        }
    }

    /// Whether this kind is found only when the user asks for network details too.
    pub fn is_network(self) -> bool {
        matches!(
            self,
            SecretKind::IpAddress | SecretKind::InternalHostname | SecretKind::Email
        )
    }
}

impl Serialize for SecretKind {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.id())
    }
}
