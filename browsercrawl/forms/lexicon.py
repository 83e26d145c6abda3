"""Words that tell what a form is for, in the job's languages, and the stop words of its query terms.

Two kinds of evidence are looked up here. Visible words (labels, placeholders, button text,
legends) are matched as whole words; names, ids, classes and action paths are matched as stems
inside the identifier (``searchform``, ``site-search``, ``loginBox``), because sites glue words.
Structure decides first (a password field is a login whatever its words say, see
:mod:`browsercrawl.forms.classify`); words break the ties that structure leaves.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

# Visible words per purpose and language; phrases are matched with their spaces.
_WORDS: dict[str, dict[str, tuple[str, ...]]] = {
    "search": {
        "en": ("search", "find", "look up", "lookup", "keyword", "keywords", "query", "search for",
               "site search", "go"),
        "de": ("suche", "suchen", "durchsuchen", "stichwort", "suchbegriff", "finden"),
        "fr": ("recherche", "rechercher", "chercher", "mot-clé", "mots-clés", "trouver"),
        "es": ("buscar", "búsqueda", "busqueda", "busca", "palabra clave"),
        "it": ("cerca", "ricerca", "cercare", "trova", "parola chiave"),
        "pt": ("pesquisar", "pesquisa", "buscar", "busca", "procurar", "palavra-chave"),
        "nl": ("zoeken", "zoek", "zoekterm", "vind"),
        "ru": ("поиск", "найти", "искать", "ключевое слово"),
        "zh": ("搜索", "搜尋", "查找", "查询", "檢索", "检索", "搜"),
        "ja": ("検索", "探す", "キーワード"),
    },
    "login": {
        "en": ("log in", "login", "sign in", "signin", "log on", "password", "username",
               "remember me", "forgot password", "forgot your password", "reset password"),
        "de": ("anmelden", "einloggen", "passwort", "kennwort", "benutzername", "anmeldung"),
        "fr": ("connexion", "se connecter", "mot de passe", "identifiant"),
        "es": ("iniciar sesión", "iniciar sesion", "contraseña", "usuario", "acceder"),
        "it": ("accedi", "accesso", "nome utente"),
        "pt": ("entrar", "senha", "acessar", "usuário"),
        "nl": ("inloggen", "wachtwoord", "gebruikersnaam", "aanmelden"),
        "ru": ("войти", "вход", "пароль", "логин"),
        "zh": ("登录", "登入", "密码", "密碼", "用户名", "用戶名"),
        "ja": ("ログイン", "パスワード", "ユーザー名"),
    },
    "register": {
        "en": ("sign up", "signup", "register", "registration", "create account", "create an account",
               "join", "join now", "confirm password", "repeat password", "new account"),
        "de": ("registrieren", "registrierung", "konto erstellen", "passwort wiederholen"),
        "fr": ("inscription", "s'inscrire", "créer un compte", "confirmer le mot de passe"),
        "es": ("registrarse", "registro", "crear cuenta", "crear una cuenta"),
        "it": ("registrati", "registrazione", "crea account"),
        "pt": ("cadastre-se", "cadastro", "registrar", "criar conta"),
        "nl": ("registreren", "account aanmaken"),
        "ru": ("регистрация", "зарегистрироваться"),
        "zh": ("注册", "註冊"),
        "ja": ("登録", "新規登録", "会員登録"),
    },
    "subscribe": {
        "en": ("subscribe", "newsletter", "mailing list", "sign up for", "updates", "digest",
               "unsubscribe", "inbox", "weekly"),
        "de": ("abonnieren", "newsletter", "abmelden"),
        "fr": ("s'abonner", "abonnez-vous", "abonner", "lettre d'information", "newsletter"),
        "es": ("suscribirse", "suscríbete", "suscribir", "boletín"),
        "it": ("iscriviti", "newsletter", "abbonati"),
        "pt": ("assinar", "inscreva-se", "newsletter"),
        "nl": ("nieuwsbrief", "inschrijven", "abonneren"),
        "ru": ("подписаться", "рассылка"),
        "zh": ("订阅", "訂閱"),
        "ja": ("購読", "メルマガ"),
    },
    "comment": {
        "en": ("comment", "comments", "reply", "post comment", "leave a reply", "add a comment",
               "your comment", "post reply", "write a review", "review"),
        "de": ("kommentar", "kommentieren", "antworten", "antwort"),
        "fr": ("commentaire", "répondre", "commenter"),
        "es": ("comentario", "comentar", "responder"),
        "it": ("commento", "commenta", "rispondi"),
        "pt": ("comentário", "comentar", "responder"),
        "nl": ("reactie", "reageren"),
        "ru": ("комментарий", "ответить"),
        "zh": ("评论", "評論", "回复", "回覆"),
        "ja": ("コメント", "返信"),
    },
    "contact": {
        "en": ("contact", "contact us", "message", "your message", "subject", "send message",
               "enquiry", "inquiry", "feedback", "phone", "send"),
        "de": ("kontakt", "nachricht", "betreff", "senden", "absenden"),
        "fr": ("contact", "contactez", "message", "objet", "envoyer"),
        "es": ("contacto", "mensaje", "asunto", "enviar"),
        "it": ("contatto", "contatti", "messaggio", "oggetto", "invia"),
        "pt": ("contato", "contacto", "mensagem", "assunto", "enviar"),
        "nl": ("contact", "bericht", "onderwerp", "verzenden", "versturen"),
        "ru": ("контакт", "сообщение", "тема", "отправить"),
        "zh": ("联系", "聯絡", "留言", "主题", "发送"),
        "ja": ("お問い合わせ", "メッセージ", "件名", "送信"),
    },
    "upload": {
        "en": ("upload", "attach", "choose file", "browse", "attachment"),
        "de": ("hochladen", "datei auswählen", "anhängen"),
        "fr": ("téléverser", "joindre", "choisir un fichier"),
        "es": ("subir", "adjuntar", "seleccionar archivo"),
        "it": ("carica", "allega"),
        "pt": ("carregar", "anexar", "enviar arquivo"),
        "nl": ("uploaden", "bijvoegen"),
        "ru": ("загрузить", "прикрепить"),
        "zh": ("上传", "上傳"),
        "ja": ("アップロード", "添付"),
    },
    "delete": {
        "en": ("delete", "remove", "destroy", "erase", "deactivate", "close account",
               "delete account", "cancel subscription", "discard", "permanently"),
        "de": ("löschen", "entfernen", "konto löschen"),
        "fr": ("supprimer", "effacer", "supprimer le compte"),
        "es": ("eliminar", "borrar", "eliminar cuenta"),
        "it": ("elimina", "cancella", "rimuovi"),
        "pt": ("excluir", "apagar", "remover"),
        "nl": ("verwijderen", "wissen"),
        "ru": ("удалить",),
        "zh": ("删除", "刪除"),
        "ja": ("削除",),
    },
    "next": {
        "en": ("next", "next page", "more results", "older", "more", "›", "»", "→", ">", ">>"),
        "de": ("weiter", "nächste", "nächste seite"),
        "fr": ("suivant", "suivante", "page suivante"),
        "es": ("siguiente", "página siguiente"),
        "it": ("successivo", "successiva", "avanti"),
        "pt": ("próximo", "próxima", "seguinte"),
        "nl": ("volgende",),
        "ru": ("далее", "следующая", "вперёд", "вперед"),
        "zh": ("下一页", "下页", "下一頁", "后页"),
        "ja": ("次へ", "次のページ"),
    },
}

# Stems looked for inside identifiers (name, id, class, action path), language-independent.
_STEMS: dict[str, tuple[str, ...]] = {
    "search": ("search", "srch", "suche", "recherch", "busca", "buscar", "ricerca", "pesquis",
               "zoek", "sousuo", "query", "find", "lookup"),
    "login": ("login", "logon", "signin", "sign-in", "sign_in", "auth", "session", "passw", "anmeld"),
    "register": ("regist", "signup", "sign-up", "sign_up", "join", "enroll", "create-account",
                 "createaccount", "new-account"),
    "subscribe": ("subscri", "newsletter", "mailinglist", "mailing-list", "mailchimp", "mc-embedded",
                  "optin", "opt-in", "digest"),
    "comment": ("comment", "reply", "respond", "review"),
    "contact": ("contact", "feedback", "enquir", "inquir", "message"),
    "upload": ("upload", "attach", "dropzone"),
    "delete": ("delete", "remove", "destroy", "deactivat", "danger", "erase", "purge"),
}

# Names of a free-text field that a search box typically sends.
QUERY_FIELD_NAMES = frozenset({
    "q", "query", "s", "search", "search_query", "searchquery", "searchword", "searchterm",
    "searchterms", "search_term", "keywords", "keyword", "kw", "k", "term", "terms", "text",
    "words", "w", "wd", "p", "qs", "find", "suche", "recherche", "buscar", "searchtext",
    "search_api_fulltext", "search_api_views_fulltext", "query_string", "ss", "qt",
})

_STOP: dict[str, str] = {
    "en": """a about above after again against all almost also am among an and any are as at be
        because been before being below between both but by can cannot could did do does doing
        done down during each either else ever every few for from further get gets got had has
        have having he her here hers herself him himself his how however if in into is it its
        itself just least less like made make many may me might more most much must my myself
        neither no nor not now of off often on once one only or other our ours ourselves out over
        own per perhaps rather same she should since so some still such than that the their theirs
        them themselves then there these they this those though through thus to too under until
        up upon us very was we well were what whatever when where whether which while who whom
        whose why will with within without would yet you your yours yourself yourselves""",
    "de": """aber alle als also am an auch auf aus bei bin bis da damit dann das dass dem den der
        des die dies diese dieser doch dort du durch ein eine einem einen einer es für hat hatte
        ich ihr im in ist ja kein mit nach nicht noch nur oder sich sie sind so um und uns von vor
        war was wenn wer wie wir wird zu zum zur""",
    "fr": """au aux avec ce ces dans de des du elle en est et eux il ils je la le les leur lui ma
        mais me même mes moi mon ne nos notre nous on ou par pas pour qu que qui sa se ses son sur
        ta te tes toi ton tu un une vos votre vous""",
    "es": """al algo como con de del el ella ellos en entre era es esta este esto la las le les lo
        los más me mi muy no nos o para pero por que se si sin sobre su sus también te tu un una
        uno unos y ya""",
    "it": """al alla alle anche che chi ci come con da dal dalla de del della delle di e gli ha ho
        il in io la le lo ma mi ne nel nella non per più questo se si sono su sua suo tra tu un una
        uno""",
    "pt": """ao aos as com como da das de do dos e ela ele em entre era essa esse está eu foi há
        isso já mais mas me muito na não nas no nos o os ou para pela pelo por que se sem seu sua
        também te um uma""",
    "nl": """aan al als bij dan dat de der deze die dit door een en er had heb het hij hoe ik in is
        je kan maar me met mij na naar niet nog nu of om ook op over te tot uit van voor was wat
        we wel wie wij zal ze zich zijn zo""",
    "ru": """а без более бы был была были было в вам вас весь во вот все всего всех вы где да даже
        для до его ее если есть еще же за здесь и из или им их к как ко когда кто ли либо мне
        может мы на над не него нее нет ни них но ну о об однако он она они оно от очень по под
        при с со так также такой там те тем то того тоже той только том ты у уже хотя чего чей
        чем что чтобы эта эти это я""",
    "zh": "的 了 是 在 和 有 我 他 她 它 们 这 那 与 及 或 也 就 都 而 之 于 为 上 下 中 个",
    "ja": "の に は を た が で て と し れ さ ある いる する も な こと これ それ",
}


def _phrase_regex(words: Iterable[str]) -> re.Pattern[str] | None:
    parts = []
    for w in sorted(set(words), key=len, reverse=True):
        esc = re.escape(w.lower())
        # Whole words for alphabetic scripts; CJK has no spaces to bound a word.
        if re.match(r"\w", w) and not re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", w):
            parts.append(rf"(?<!\w){esc}(?!\w)")
        else:
            parts.append(esc)
    return re.compile("|".join(parts)) if parts else None


@dataclass(frozen=True)
class Lexicon:
    """The cue words of some languages, compiled once."""

    languages: tuple[str, ...]

    def words(self, purpose: str, text: str) -> bool:
        """Do visible words of ``purpose`` occur in ``text`` (already lower-cased)?"""
        rx = _word_regexes(self.languages).get(purpose)
        return bool(text and rx is not None and rx.search(text))

    def word_hits(self, purpose: str, text: str) -> list[str]:
        rx = _word_regexes(self.languages).get(purpose)
        return rx.findall(text) if (text and rx is not None) else []

    @staticmethod
    def stems(purpose: str, identifier: str) -> bool:
        """Does an identifier (name, id, class, path; lower-cased) hold a stem of ``purpose``?"""
        return bool(identifier) and any(s in identifier for s in _STEMS.get(purpose, ()))

    @property
    def stop_words(self) -> frozenset[str]:
        return _stop_words(self.languages)

    @property
    def cjk(self) -> bool:
        return any(lang in ("zh", "ja") for lang in self.languages)


@lru_cache(maxsize=16)
def _word_regexes(languages: tuple[str, ...]) -> dict[str, re.Pattern[str]]:
    out: dict[str, re.Pattern[str]] = {}
    for purpose, by_lang in _WORDS.items():
        words = [w for lang in languages for w in by_lang.get(lang, ())]
        rx = _phrase_regex(words)
        if rx is not None:
            out[purpose] = rx
    return out


@lru_cache(maxsize=16)
def _stop_words(languages: tuple[str, ...]) -> frozenset[str]:
    return frozenset(w for lang in languages for w in _STOP.get(lang, "").split())


def lexicon(languages: Iterable[str]) -> Lexicon:
    """The lexicon of ``languages`` (English is always added: markup and ids are mostly English)."""
    langs = tuple(dict.fromkeys(["en", *languages]))
    return Lexicon(langs)
