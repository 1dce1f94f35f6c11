//! Pastes for Faultline's own detectors, one kind of secret each, values drawn afresh: what the
//! structure or a key's name reveals, and the gaps issue 42 found.

use super::forms::base64_encode;
use super::rng::Rng;

pub struct Case {
    pub name: &'static str,
    pub inputs: Vec<(&'static str, String)>,
    /// What must go, in every form.
    pub values: Vec<String>,
    /// What must stay, as often as before.
    pub names: Vec<String>,
}

fn case(name: &'static str, text: String, values: &[&str], names: &[&str]) -> Case {
    Case {
        name,
        inputs: vec![("paste", text)],
        values: values.iter().map(|v| v.to_string()).collect(),
        names: names.iter().map(|v| v.to_string()).collect(),
    }
}

pub fn cases(rng: &mut Rng) -> Vec<Case> {
    let mut out = Vec::new();
    let pw = rng.alnum(18);
    let b = base64_encode(pw.as_bytes());
    out.push(case(
        "secret-data",
        format!("apiVersion: v1\nkind: Secret\nmetadata:\n  name: db-creds\n  namespace: shop\ntype: Opaque\ndata:\n  password: {b}\n"),
        &[&b],
        &["db-creds", "password"],
    ));
    let pw = rng.alnum(16);
    out.push(case(
        "string-data",
        format!("apiVersion: v1\nkind: Secret\nmetadata:\n  name: app\nstringData:\n  api-key: \"{pw}\"\n"),
        &[&pw],
        &["api-key"],
    ));
    let pw = base64_encode(rng.alnum(20).as_bytes());
    out.push(case(
        "secret-data-json",
        format!("{{\n    \"apiVersion\": \"v1\",\n    \"kind\": \"Secret\",\n    \"metadata\": {{\"name\": \"db\"}},\n    \"data\": {{\n        \"pw\": \"{pw}\"\n    }}\n}}\n"),
        &[&pw],
        &["\"pw\""],
    ));
    let (user, pw) = ("ci-pusher", rng.alnum(24));
    let auth = base64_encode(format!("{user}:{pw}").as_bytes());
    let config = format!("{{\"auths\":{{\"registry.shop.example\":{{\"username\":\"{user}\",\"password\":\"{pw}\",\"auth\":\"{auth}\"}}}}}}");
    let config = base64_encode(config.as_bytes());
    out.push(case(
        "docker-auths-base64",
        format!("apiVersion: v1\nkind: Secret\nmetadata:\n  name: regcred\ntype: kubernetes.io/dockerconfigjson\ndata:\n  .dockerconfigjson: {config}\n"),
        &[&config],
        &["regcred"],
    ));
    let pw = rng.alnum(16);
    out.push(case(
        "env-value",
        format!(
            "spec:\n  containers:\n  - name: api\n    env:\n    - name: DB_PASSWORD\n      value: {pw}\n"
        ),
        &[&pw],
        &["DB_PASSWORD"],
    ));
    let pw = rng.alnum(14);
    out.push(case(
        "args-flag",
        format!("    args:\n    - --db-password\n    - {pw}\n    - --port=8080\n"),
        &[&pw],
        &["--db-password"],
    ));
    let key = base64_encode(
        format!(
            "-----BEGIN RSA PRIVATE KEY-----\n{}\n-----END RSA PRIVATE KEY-----\n",
            rng.alnum(64)
        )
        .as_bytes(),
    );
    let token = rng.alnum(32);
    out.push(case(
        "kubeconfig",
        format!("apiVersion: v1\nkind: Config\nusers:\n- name: admin\n  user:\n    client-key-data: {key}\n- name: ci\n  user:\n    token: {token}\n"),
        &[&key, &token],
        &["admin"],
    ));
    let pw = base64_encode(rng.alnum(20).as_bytes());
    let body = format!("{{\"kind\":\"Secret\",\"apiVersion\":\"v1\",\"metadata\":{{\"name\":\"orders\"}},\"data\":{{\"password\":\"{pw}\"}}}}");
    out.push(case(
        "v8-response-body",
        format!("I1201 09:14:02.139851   48211 request.go:1212] Response Body: {body}\n"),
        &[&pw],
        &["orders"],
    ));
    // Issue 42: a Secret's value, decoded, elsewhere in the paste: a log line, an env var, a command.
    let pw = format!("{}!{}", rng.alnum(8), rng.alnum(6));
    let b = base64_encode(pw.as_bytes());
    out.push(case(
        "decoded-elsewhere",
        format!(
            "$ kubectl get secret db -o yaml\napiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ndata:\n  password: {b}\n$ kubectl logs api-0\n2026-12-01 09:14:02 connecting as app with {pw} to db:5432\n$ kubectl exec api-0 -- env\nDATABASE_PASS_HINT={pw}\n$ psql \"host=db user=app\" -c 'select 1' {pw}\n"
        ),
        &[&pw, &b],
        &["db", "password"],
    ));
    let pw = rng.alnum(12);
    let b = base64_encode(pw.as_bytes());
    out.push(Case {
        name: "decoded-in-another-input",
        inputs: vec![
            (
                "secret.yaml",
                format!("apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ndata:\n  password: {b}\n"),
            ),
            (
                "logs.txt",
                format!("level=error msg=\"auth failed for user app ({pw})\"\n"),
            ),
        ],
        values: vec![pw.clone(), b],
        names: vec![],
    });
    // Issue 42: presigned URLs.
    let sig = rng.string(64, "0123456789abcdef");
    out.push(case(
        "s3-presigned",
        format!("Failed to pull: GET https://shop-assets.s3.eu-west-1.amazonaws.com/app.tar?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date=20261201T091402Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Signature={sig}: 403 Forbidden\n"),
        &[&sig],
        &["shop-assets"],
    ));
    let sig = rng.string(256, "0123456789abcdef");
    out.push(case(
        "gcs-presigned",
        format!("curl -s 'https://storage.googleapis.com/shop-builds/app.tgz?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Date=20261201T091402Z&X-Goog-Expires=900&X-Goog-SignedHeaders=host&X-Goog-Signature={sig}'\n"),
        &[&sig],
        &["shop-builds"],
    ));
    // Issue 42: a value split across lines.
    let (a, b2) = (rng.alnum(24), rng.alnum(24));
    out.push(case(
        "folded-block",
        format!("kind: Secret\nmetadata:\n  name: folded\nstringData:\n  token: >-\n    {a}\n    {b2}\n"),
        &[&a, &b2],
        &["folded"],
    ));
    let (a, b2) = (rng.alnum(30), rng.alnum(30));
    out.push(case(
        "json-escaped-newline",
        format!("{{\"kind\":\"ConfigMap\",\"data\":{{\"creds\":\"api_secret={a}\\n{b2}\\n\"}}}}\n"),
        &[&a],
        &["creds"],
    ));
    let (a, b2) = (rng.alnum(40), rng.alnum(20));
    out.push(case(
        "wrapped-log-line",
        format!("2026-12-01T09:14:02Z ERROR request failed: Authorization: Bearer {a}\n{b2} rejected (401)\n2026-12-01T09:14:03Z INFO retrying\n"),
        &[&a, &b2],
        &["retrying"],
    ));
    // Issue 42: a GCP service-account JSON in a ConfigMap.
    let key_id = rng.string(40, "0123456789abcdef");
    let pem = format!(
        "-----BEGIN PRIVATE KEY-----\\n{}\\n-----END PRIVATE KEY-----\\n",
        rng.alnum(64)
    );
    out.push(case(
        "gcp-service-account",
        format!("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: gcp\ndata:\n  sa.json: |\n    {{\n      \"type\": \"service_account\",\n      \"project_id\": \"shop-prod\",\n      \"private_key_id\": \"{key_id}\",\n      \"private_key\": \"{pem}\",\n      \"client_email\": \"api@shop-prod.iam.gserviceaccount.com\"\n    }}\n"),
        &[&key_id],
        &["shop-prod", "service_account"],
    ));
    // Issue 42: a `.properties` line, a `key=value` in a log line, a password env var in describe.
    let pw = rng.alnum(15);
    out.push(case(
        "properties",
        format!("data:\n  application.properties: |\n    spring.datasource.url=jdbc:postgresql://db:5432/shop\n    spring.datasource.password={pw}\n    server.port=8080\n"),
        &[&pw],
        &["spring.datasource.password"],
    ));
    let pw = rng.alnum(15);
    out.push(case(
        "properties-colon",
        format!("data:\n  app.properties: |\n    db.password:{pw}\n    db.user:app\n"),
        &[&pw],
        &["db.password"],
    ));
    let pw = rng.alnum(15);
    out.push(case(
        "log-key-value",
        format!("2026-12-01 09:14:02,118 WARN [main] c.s.Db - retrying with [user=app, password={pw}]\n"),
        &[&pw],
        &["password"],
    ));
    let pw = rng.alnum(15);
    out.push(case(
        "log-key-colon",
        format!("2026-12-01 09:14:02 INFO config loaded, db password: {pw}, pool 10\n"),
        &[&pw],
        &["password"],
    ));
    let pw = rng.alnum(15);
    out.push(case(
        "describe-env",
        format!("Containers:\n  api:\n    Environment:\n      POSTGRES_USER:      app\n      POSTGRES_PASSWORD:  {pw}\n      PGDATA:             /var/lib/postgresql/data\n"),
        &[&pw],
        &["POSTGRES_PASSWORD"],
    ));
    let token = rng.alnum(40);
    out.push(case(
        "bearer-header",
        format!("$ curl -H \"Authorization: Bearer {token}\" https://api.shop.example/v1/orders\n"),
        &[&token],
        &["Authorization"],
    ));
    let basic = base64_encode(format!("admin:{}", rng.alnum(12)).as_bytes());
    out.push(case(
        "basic-header",
        format!("> GET / HTTP/1.1\n> Authorization: Basic {basic}\n"),
        &[&basic],
        &["Authorization"],
    ));
    let jwt = format!(
        "eyJhbGciOiJSUzI1NiJ9.{}.{}",
        base64_encode(format!("{{\"sub\":\"{}\"}}", rng.alnum(10)).as_bytes()).trim_end_matches('='),
        rng.alnum(43)
    );
    out.push(case(
        "jwt",
        format!("level=debug msg=\"token refreshed\" id_token={jwt}\n"),
        &[&jwt],
        &["token refreshed"],
    ));
    let body = rng.alnum(64);
    out.push(case(
        "pem",
        format!("$ cat tls.key\n-----BEGIN EC PRIVATE KEY-----\n{body}\n-----END EC PRIVATE KEY-----\n"),
        &[&body],
        &["tls.key"],
    ));
    let pw = rng.alnum(14);
    out.push(case(
        "url-credential",
        format!("      DATABASE_URL:  postgres://app:{pw}@db.shop.svc:5432/orders\n"),
        &[&pw],
        &["db.shop.svc"],
    ));
    let pw = rng.alnum(14);
    out.push(case(
        "connection-string",
        format!("ConnectionStrings__Main=Server=sql;Database=shop;User Id=app;Password={pw};\n"),
        &[&pw],
        &["Database=shop"],
    ));
    let pw = rng.alnum(16);
    out.push(case(
        "annotation",
        format!("metadata:\n  annotations:\n    example.com/api-token: {pw}\n"),
        &[&pw],
        &["example.com/api-token"],
    ));
    let pw = rng.alnum(16);
    out.push(case(
        "last-applied",
        format!("apiVersion: v1\nkind: Secret\nmetadata:\n  annotations:\n    kubectl.kubernetes.io/last-applied-configuration: |\n      {{\"apiVersion\":\"v1\",\"data\":{{\"key\":\"{0}\"}},\"kind\":\"Secret\",\"metadata\":{{\"name\":\"la\"}}}}\n  name: la\ndata:\n  key: {0}\n", base64_encode(pw.as_bytes())),
        &[&base64_encode(pw.as_bytes())],
        &["la"],
    ));
    let pw = rng.alnum(16);
    out.push(case(
        "data-without-kind",
        format!(
            "data:\n  api-key: {}\n  url: {}\n",
            base64_encode(pw.as_bytes()),
            base64_encode(b"https://pay.example")
        ),
        &[&base64_encode(pw.as_bytes())],
        &["api-key"],
    ));
    let pw = rng.alnum(12);
    out.push(case(
        "mysql-p",
        format!("    command: [\"sh\", \"-c\", \"mysqldump -uroot -p{pw} shop > /backup/shop.sql\"]\n"),
        &[&pw],
        &["mysqldump"],
    ));
    let pw = rng.alnum(16);
    out.push(case(
        "ini",
        format!("[default]\naws_secret_access_key = {pw}\nregion = eu-west-1\n"),
        &[&pw],
        &["aws_secret_access_key"],
    ));
    let pw = rng.alnum(16);
    out.push(case(
        "flow-env",
        format!("    env: [{{name: API_TOKEN, value: {pw}}}]\n"),
        &[&pw],
        &["API_TOKEN"],
    ));
    out
}
