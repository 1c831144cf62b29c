import type { Cue } from "./injection-lexicon.js";
import { WORLD_VERB_LAST } from "./injection-languages-world.js";

/*
 * More languages for the injection scorer's word classes (issue 24, fifth round): Swedish, Norwegian and Danish,
 * Dutch, Turkish, Czech and Slovak, Indonesian and Malay, Ukrainian, Romanian, Hungarian, Finnish, Greek, Hebrew,
 * Arabic, Persian, Hindi, Swahili, Tagalog and Vietnamese (Thai, without spaces, by substring in the lexicon's `CJK`).
 * Each language gets the words an instruction to a model is built from — who is addressed (the assistant, the agent),
 * the person kept in the dark (the user), a negation and a telling verb, the common imperatives (send, forward, open, delete, pay, change, approve), secrets, "all" and what it makes bulk — so the scorer's
 * structure (injection.ts) reads them as it reads English. Like the rest of the lexicon these are word classes, not
 * phrases an attack used. Hebrew and Arabic attach prepositions and the article to the word ("לסוכן", "המשתמש",
 * "للمستخدم"): their common prefixed forms are listed.
 *
 * Fused negative imperatives ("söyleme", "neříkej", "nämn inte" is two words) belong to both `neg` and `comm`, so the
 * secrecy structure (a negation, a telling verb and the user within a few words) finds them in one word.
 */
export const MORE_WORDS: Partial<Record<Cue, string>> = {
  ai: "ai-assistenten ai-assistent ai-agenten ki-agent assistenten assistentti avustaja tekoäly agentti asistan asistanı asistanına asistanlar asistanları ajan ajanı ajanına yapay " +
    "asistente asistentu asistentovi asistenta asisten agen asistentule asistentul agentule agentul agentului asszisztens ügynök " +
    "асистент асистенте асистенту агенте агенту-оркестратору оркестратору оркестратор ші " +
    "βοηθέ βοηθός βοηθό πράκτορα πράκτορας " +
    "סוכן לסוכן הסוכן לסוכנים עוזר לעוזר העוזר " +
    "المساعد للمساعد مساعد الوكيل للوكيل सहायक एजेंट एआई دستیار دستیارِ عامل msaidizi wakala katulong",
  target: "användaren användare användarens användarna brukeren brukaren bruger brugeren gebruiker gebruikers kullanıcı kullanıcıya kullanıcının kullanıcıyı " +
    "uživatel uživateli uživatele uživatelům používateľ používateľovi pengguna pemilik користувачу користувача користувач користувачеві " +
    "utilizatorului utilizatorul utilizator felhasználó felhasználónak käyttäjälle käyttäjä käyttäjän χρήστη χρήστης " +
    "המשתמש למשתמש משתמש המשתמשת المستخدم للمستخدم उपयोगकर्ता उपयोगकर्ताओं यूज़र کاربر کاربرِ mtumiaji watumiaji gumagamit",
  neg: "inte ej aldrig ikke ikkje niet nooit geen asla söyleme bahsetme gösterme bildirme sorma nikdy neříkej neinformuj nezmiňuj neukazuj neříkejte " +
    "jangan tidak ніколи nu-i niciodată nem soha älä μην μη אל ואל לא لا ولا không đừng मत न नहीं نه نگو نکن usimwambie usiseme usimjulishe huwag hindi",
  comm: "nämn berätta säg informera fortell nevn vertel meld noem zeg söyle söyleme bahsetme gösterme bildirme " +
    "říkej neříkej řekni zmiňuj nezmiňuj informuj neinformuj neukazuj neříkejte beri tahu beritahu memberitahu bilang katakan sebutkan " +
    "повідомляй повідомляйте кажи згадуй розповідай spune spune-i menționa informa mondd szólj említsd kerro mainitse πεις αναφέρεις " +
    "תציג תגיד תספר תודיע תזכיר تخبر تذكر बताना बताएं बताओ बताइए कहना نگو بگو اطلاع usimwambie mwambie sema usiseme mjulishe usimjulishe sabihin ipaalam banggitin",
  send: "skicka vidarebefordra dela send videresend stuur verstuur doorsturen deel gönder ilet yükle paylaş pošli přepošli odešli nahraj sdílej " +
    "kirim kirimkan teruskan unggah bagikan надішли надішліть відправ відправте перешли trimite trimite-mi trimiteți redirecționează încarcă " +
    "küldd továbbítsd lähetä välitä στείλε προώθησε שלח שלחו תשלח أرسل ارسل gửi chuyển भेजें भेजो भेजिए भेज ارسال بفرست فرستادن tuma tumeni peleka ipadala ipasa",
  read: "öppna läs hämta kopiera exportera åpne kopier lees haal kopieer exporteer aç oku kopyala otevři přečti zkopíruj exportuj " +
    "buka baca ambil salin ekspor відкрий прочитай скопіюй зчитай deschide citește copiază exportă olvasd nyisd avaa lue קרא פתח đọc खोलें पढ़ें निकालें بخوان باز fungua soma buksan basahin kunin kopyahin",
  exec: "kör kjør voer çalıştır spusť jalankan виконай rulează execută futtasd suorita הרץ",
  pay: "betala överför betal betaal öde zaplať převeď bayar bayarkan сплати plătește transferă fizess maksa שלם भुगतान پرداخت lipa bayaran",
  delete: "radera slett verwijder wis sil smaž vymaž odstraň hapus видали видаліть зітри șterge şterge töröld poista מחק xóa xoá हटाएं मिटाएं حذف futa burahin",
  act: "uppdatera ändra lägg godkänn markera oppdater endre wijzig verander voeg keur markeer değiştir onayla ekle güncelle işaretle " +
    "změň aktualizuj přidej schval označ ubah ganti perbarui tambahkan setujui tandai proses вимкни зміни додай онови " +
    "allow expose enable disable schimbă actualizează adaugă aprobă marchează dezactivează módosítsd frissítsd päivitä muuta עדכן שנה הוסף אשר",
  personal: "lösenord lösenordet passord adgangskode wachtwoord wachtwoorden şifre şifreleri parola pasaport heslo hesla hesel " +
    "sandi paspor паролі паролів parola parolele pașaport jelszó salasana κωδικό סיסמה הסיסמה סיסמאות דרכון הדרכון אשראי האשראי الائتمانية الائتمان جواز पासवर्ड رمز nenosiri पासपोर्ट گذرنامه pasipoti",
  bulk: "alla varje hela alle elke hele tüm bütün všechny všechna všech celý semua seluruh setiap всі усі кожен toate toți fiecare összes kaikki όλα כל सभी सारे همه همهٔ zote kila lahat",
  files: "mejl e-post filer kontakter meddelanden bestanden berichten contacten dosyaları mesajları kişileri soubory zprávy kontakty e-maily " +
    "berkas pesan kontak файли листи контакти fișierele mesajele contactele e-mailurile המיילים הקבצים",
  recipient: "bankkonto bankgiro plusgiro kontonummer rekening rekeningnummer hesap hesabına účet účtu rekening norek рахунок рахунку contul iban-ul חשבון",
  modal: "måste ska bör alltid må moet moeten altijd mutlaka gerek musíš musí vždy harus wajib selalu повинен потрібно треба завжди trebuie mereu kell aina חייב phải hãy करें کن lazima dapat kailangan",
  urgent: "omedelbart brådskande dringend onmiddellijk hemen acil okamžitě ihned segera терміново негайно imediat azonnal heti מיד דחוף",
  stealth: "tyst stilletjes ongemerkt sessizce gizlice potichu tajně diam-diam таємно непомітно discret csendben hiljaa בשקט בסתר",
  filler: "snälla alsjeblieft lütfen prosím tolong silakan vă kérlek",
  without: "utan uden zonder olmadan bez tanpa fără nélkül ilman χωρίς בלי بدون बिना بدون",
};

/** Imperatives of these languages that end like a non-finite form elsewhere (-er, -ar, -ir): "gönder", "bayar". */
export const MORE_IMPERATIVES = ["gönder", "değiştir", "çalıştır", "verwijder", "kopieer", "exporteer", "bayar", "voer", "keur", "markeer", "ilet", "kör"];

/**
 * Imperatives of languages that put the verb last (Turkish, Hindi, Persian): asked wherever they stand in the clause,
 * not only at its start.
 */
export const VERB_LAST = new Set(["gönder", "ilet", "yükle", "paylaş", "aç", "oku", "kopyala", "sil", "öde", "değiştir", "onayla", "ekle", "güncelle", "çalıştır",
  "भेजें", "भेजो", "भेजिए", "खोलें", "पढ़ें", "निकालें", "हटाएं", "मिटाएं", "करें",
  "بفرست", "بخوان", "ارسال", "حذف"]);
for (const w of WORLD_VERB_LAST) VERB_LAST.add(w);
