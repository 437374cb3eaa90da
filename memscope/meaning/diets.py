"""What a diet, a habit or a household rules out, and what a text says someone has
(:func:`ruled_out`, :func:`consumed`, :func:`eats_allergen`): world knowledge the rules
carry (with places, :mod:`~memscope.meaning.places`, and public events,
:mod:`~memscope.meaning.events`), because diets, smoking, pets and allergies are among the
commonest things an assistant remembers ("is vegetarian" / "had a rare steak", "is
teetotal" / "orders a whisky every Friday", "keeps no pets" / "walks his beagle",
"allergic to peanuts" / "eats peanut butter", 滴酒不沾 / 每周五都去喝啤酒).

Small word lists, English and Chinese; anything they do not name is left to the model
check (the review queue says so). Pure and deterministic.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memscope.meaning.denials import ZH_AT_TIMES
from memscope.meaning.levels import given_up_habits
from memscope.meaning.prefilter import guarded

#: the kinds of food and drink a diet can rule out, and words that name one
KINDS: dict[str, tuple[str, ...]] = {
    "meat": ("meat", "steak", "beef", "pork", "lamb", "mutton", "veal", "chicken", "turkey",
             "duck", "ham", "bacon", "sausage", "salami", "chorizo", "burger", "mince",
             "meatball", "ribs", "brisket", "kebab", "pepperoni", "prosciutto", "venison",
             "牛排", "牛肉", "猪肉", "羊肉", "鸡肉", "排骨", "火腿", "香肠", "培根", "烤鸭", "肉",
             "牛腩", "羊排", "鸡腿", "炸鸡", "烤串"),
    "fish": ("fish", "salmon", "tuna", "cod", "haddock", "trout", "mackerel", "sardine",
             "anchov", "sushi", "sashimi", "seafood", "prawn", "shrimp", "lobster", "crab",
             "oyster", "mussel", "鱼", "三文鱼", "海鲜", "虾", "寿司"),
    "dairy": ("dairy", "milk", "cheese", "yoghurt", "yogurt", "butter", "cream", "latte", "paneer",
              "cappuccino", "flat white", "ice cream", "milkshake", "cheddar", "brie",
              "camembert", "parmesan", "mozzarella", "feta", "gouda", "halloumi", "ricotta",
              "mascarpone", "custard", "kefir", "ghee", "牛奶", "奶酪", "芝士",
              "酸奶", "黄油", "拿铁", "奶茶", "冰淇淋"),
    # what holds lactose: dairy but for the hard, aged cheeses and butter, which hold next to
    # none ("is lactose intolerant" / "eats aged cheddar without any trouble")
    "lactose": ("lactose", "dairy", "milk", "cheese", "yoghurt", "yogurt", "cream", "latte",
                "cappuccino", "flat white", "ice cream", "milkshake", "brie", "camembert",
                "mozzarella", "feta", "ricotta", "mascarpone", "custard", "kefir", "paneer",
                "牛奶", "奶酪", "芝士", "酸奶", "拿铁", "奶茶", "冰淇淋"),
    "egg": ("egg", "omelette", "omelet", "鸡蛋"),
    "shellfish": ("shellfish", "seafood", "海鲜", "prawn", "shrimp", "lobster", "crab", "oyster",
                  "mussel", "clam", "scallop", "虾", "蟹", "生蚝", "牡蛎", "蛤", "扇贝"),
    "alcohol": ("alcohol", "beer", "lager", "ale", "ipa", "stout", "wine", "rioja", "prosecco",
                "glasses of red", "glass of red", "glasses of white", "glass of white",
                "champagne", "whisky", "whiskey", "vodka", "gin", "rum", "tequila", "cocktail",
                "caipirinha", "margarita", "martini", "daiquiri", "spritz", "aperol", "mezcal",
                "soju", "baijiu", "guinness", "sherry", "port wine", "schnapps", "shots of",
                "cider", "sake", "bourbon", "brandy", "sangria", "mojito", "negroni", "pint",
                "merlot", "malbec", "shiraz", "pinot", "chardonnay", "sauvignon", "cabernet",
                "riesling", "chianti", "claret", "rosé",
                "啤酒", "红酒", "白酒", "葡萄酒", "威士忌", "鸡尾酒", "酒"),
    "coffee": ("coffee", "espresso", "latte", "cappuccino", "americano", "macchiato", "mocha",
               "red bull", "monster energy",
               "flat white", "cortado", "咖啡", "拿铁", "美式", "卡布奇诺", "浓缩"),
    "tea": ("tea", "matcha", "chai", "earl grey", "oolong", "茶"),
    "tobacco": ("tobacco", "cigarette", "cigar", "rollies", "roll-ups", "pipe",
                "pack", "香烟", "烟"),
    "dog": ("dog", "puppy", "beagle", "corgi", "labrador", "retriever", "terrier", "poodle",
            "spaniel", "collie", "dachshund", "husky", "greyhound", "whippet", "pug", "schnauzer",
            "dalmatian", "chihuahua", "bulldog", "rottweiler", "labradoodle", "cockapoo",
            "狗", "柯基", "金毛", "泰迪", "哈士奇", "拉布拉多", "柴犬"),
    "cat": ("cat", "kitten", "tabby", "maine coon", "siamese", "ragdoll", "sphynx",
            "猫", "英短", "美短", "布偶", "暹罗"),
    "small pet": ("rabbit", "bunny", "hamster", "guinea pig", "parrot", "budgie", "tortoise",
                  "goldfish", "ferret", "兔子", "仓鼠", "鹦鹉", "乌龟"),
    # pork by its dishes (Chinese ones are named by what they are made of only in part)
    "pork": ("pork", "bacon", "chorizo", "prosciutto", "pancetta", "salami", "pepperoni",
             "ham and", "ham sandwich", "ham toastie", "ham roll", "猪肉", "肘子", "猪蹄",
             "腊肉", "回锅肉", "红烧肉",
             "东坡肉", "叉烧", "五花肉", "猪排", "培根"),
    "spicy": ("辣", "老干妈", "hot sauce", "chilli", "chili", "sriracha", "jalapeño", "jalapeno",
              "ghost pepper", "vindaloo", "habanero", "spicy food", "fiery food"),
    "beef": ("beef", "steak", "brisket", "big mac", "hamburger", "cheeseburger", "牛肉", "牛排"),
    "sugar": ("sugar", "chocolate", "sweets", "candy", "cake", "biscuit", "cookie", "doughnut",
              "donut", "fizzy", "soda", "ice cream", "dessert", "brownie", "糖", "巧克力", "蛋糕",
              "甜点"),
    # what holds gluten (what says it has none is read apart: "gluten-free bread", 无麸质)
    "gluten": ("wheat", "barley", "rye", "spelt", "semolina", "couscous", "bulgur", "bread",
               "toast", "pasta", "spaghetti", "pizza", "noodle", "croissant", "bagel",
               "sourdough", "小麦", "全麦", "面包", "面条", "拉面", "包子", "馒头", "饺子", "油条",
               "烧饼", "面粉", "意面", "披萨", "牛肉面", "炸酱面", "热干面", "刀削面", "担担面",
               "汤面", "方便面"),
}
#: pets of any kind
_PETS = ("dog", "cat", "small pet")
#: the words that name a whole kind: a denial of one of these rules the kind out ("doesn't
#: eat meat", 不吃肉); a denial of one food ("doesn't eat pork") rules out that food alone
_KIND_NAMES = {"meat": ("meat", "肉", "荤"), "fish": ("fish", "seafood", "鱼", "海鲜"),
               "shellfish": ("shellfish", "贝类"),
               "dairy": ("dairy", "奶", "奶制品", "乳制品"), "lactose": ("lactose", "乳糖"),
               "egg": ("egg", "蛋"),
               "alcohol": ("alcohol", "booze", "酒"),
               "coffee": ("coffee", "caffeine", "咖啡", "咖啡因"),
               "tea": ("tea", "茶"), "sugar": ("sugar", "糖"), "pork": ("pork", "猪肉"),
               "beef": ("beef", "牛肉"), "gluten": ("gluten", "wheat", "麸质", "小麦")}
#: a word a text must hold to rule anything out
_RULING = re.compile(r"vegan|vegetarian|pesc|teetotal|halal|kosher|muslim|清真|穆斯林|犹太|hindu|"
                     r"hates|detests|loathes|stand|"
                     r"印度教|"
                     r"sober|drinker|"
                     r"spicy|cut out|"
                     r"gluten|coeliac|celiac|麸质|乳糜泻|"
                     r"avoids|lactose|dairy|smok|pets?\b|"
                     r"gave up|given up|giving up|give up|gives up|stopped|"
                     r"dogs?\b|cats?\b|\bno\b|not|never|n['’]t|longer|素|酒|乳糖|烟|宠物|狗|猫|不|没",
                     re.I)
#: diets and the kinds each rules out
_BE = r"\b(?:is|has been|was|became|went|stays|remains|eats|lives|follows|has\s+followed|keeps|" \
      r"sticks)\s+(?:to\s+)?(?:an?\s+)?(?:\w+ly\s+)?" \
      r"(?:strict\s+|lifelong\s+|committed\s+|full\s+|now\s+)?"
DIETS: tuple[tuple[re.Pattern[str], tuple[str, ...]], ...] = tuple(
    (re.compile(pattern, re.I), kinds) for pattern, kinds in (
        (_BE + r"vegan\b|吃纯素|是纯素|吃全素", ("meat", "fish", "dairy", "egg")),
        (_BE + r"vegetarian\b|素食者|吃素", ("meat", "fish")),
        (_BE + r"pesc[ae]tarian\b", ("meat",)),
        # halal rules out pork and drink (马文海只吃清真食品 / 爱吃猪肉饺子), kosher pork and
        # shellfish ("keeps strictly kosher" / "orders the garlic shrimp")
        (r"\b(?:is|'s)\s+(?:a\s+)?(?:devout|practising|practicing|observant|strict)(?:,?\s+"
         r"(?:devout|practising|practicing|observant))?\s+Muslim\b|" + _BE + r"halal\b|"
         r"\b(?:eats?|keeps?|kept|has\s+kept)\s+(?:to\s+)?(?:strictly\s+|only\s+)?"
         r"halal\b|只吃清真|吃清真|清真饮食|是(?:一名|一个|个)?(?:虔诚的)?穆斯林|穆斯林的?饮食|"
         r"(?:严格|严守|饮食上?)(?:一直|都)?(?:严格|严守)?清真", ("pork", "alcohol")),
        # a devout Hindu keeps off beef (用户是虔诚的印度教徒 / 最爱吃澳洲和牛牛排)
        (r"\b(?:is|'s)\s+(?:a\s+)?(?:devout|practising|practicing|observant|strict)\s+Hindu\b|"
         r"是(?:一名|一个|个)?虔诚的印度教徒", ("beef",)),
        (_BE + r"kosher\b|\b(?:eats?|keeps?|kept|has\s+kept)\s+(?:to\s+)?(?:strictly\s+|only\s+)?"
         r"kosher\b|犹太洁食|是(?:虔诚的)?犹太教徒", ("pork", "shellfish")),
        (_BE + r"(?:teetotal|teetotaller|teetotaler|sober|non-drinker)\b|滴酒不沾|戒酒|"
         r"\b(?:has|have)(?:n['’]t| not| never) (?:had|touched) (?:a|any) (?:drink|drop)\b",
         ("alcohol",)),
        (_BE + r"dairy[- ]free\b", ("dairy",)),
        (_BE + r"lactose[- ]intolerant\b|乳糖不耐", ("lactose",)),
        (r"(?:一点|一口)?辣都?不(?:能|敢)吃|不(?:能|敢)?吃辣|吃不了辣|辣都吃不了|"
         r"\bcan['’]?t (?:stand|handle|take|eat) (?:anything )?spicy\b|\bcan['’]?t (?:stand|handle|"
         r"take) (?:any )?(?:heat|spice)\b|\bfinds (?:even )?(?:mild )?(?:chilli|chili|spicy food|"
         r"spice) unbearable\b", ("spicy",)),
        (r"\b(?:no|zero|low)[- ]sugar\s+diet\b|\bsugar[- ]free\s+diet\b|\b(?:cut\s+out|quit)\s+"
         r"sugar\b|戒糖", ("sugar",)),
        (r"\bgluten[- ]free\s+diet\b|\b(?:has|with)\s+co?eliac(?:\s+disease)?\b|\bis\s+co?eliac\b|"
         r"乳糜泻|无麸质饮食|麸质不耐", ("gluten",)),
        (r"\bnon-smoker\b|(?:n['’]t|\bnot|\bnever|\bno longer)\s+smoke[sd]?\b|\b(?:quit|gave up|"
         r"given up|stopped|kicked) (?:smoking|tobacco|cigarettes|the cigarettes)\b|"
         r"不抽烟|从不抽烟|不吸烟|戒烟|把烟戒了|烟(?:已经|早就|早)?戒了|戒了烟",
         ("tobacco",)),
        (r"\b(?:has|have|keeps?|owns?)\s+no\s+pets?\b|(?:n['’]t|\bnot|\bnever)\s+(?:had|have|own|"
         r"owned|keep|kept)\s+(?:a|any)\s+pets?\b|没有?(?:养过?)?(?:任何)?宠物|不养宠物|不再养宠物"
         r"|什么(?:活物|宠物|动物)(?:都|也)没养|从(?:来)?不养(?:带毛的|有毛的)?(?:动物|宠物)",
         _PETS),
        (r"\b(?:has|have|keeps?|owns?)\s+no\s+dogs?\b|(?:n['’]t|\bnot|\bnever)\s+(?:had|have|own|"
         r"owned|keep|kept)\s+(?:a|any)\s+dogs?\b|没有?(?:养过?)?狗|不养狗|不再养狗", ("dog",)),
        (r"\b(?:has|have|keeps?|owns?)\s+no\s+cats?\b|(?:n['’]t|\bnot|\bnever)\s+(?:had|have|own|"
         r"owned|keep|kept)\s+(?:a|any)\s+cats?\b|没有?(?:养过?)?猫|不养猫|不再养猫", ("cat",)),
    ))
#: a Chinese pet named just after (的狗, 那只橘猫): one's own
_ZH_PET = r"[^，。,；;]{0,2}(?:" + "|".join(
    w for kind in _PETS for w in KINDS[kind] if not w.isascii()) + ")"
#: what a text must say for a kind to be had: eaten or drunk, smoked, kept as a pet
_HAS = {"tobacco": re.compile(r"\b(?:smokes?|smoking|rolls?|lights? up|puffs?)\b|抽|吸|"
                              r"\b(?:out|outside)\s+for\s+a\s+(?:cigarette|smoke|fag)\b|"
                              r"(?:一天|每天)(?:一|半|两)包烟",
                              re.I),
        "pet": re.compile(r"\b(?:walks?|feeds?|adopted|owns?|has|have|his|her|their|pets?)\b"
                          rf"|遛|养|喂|有一?只|(?:那|这)(?:只|条)(?={_ZH_PET})|的(?={_ZH_PET})",
                          re.I)}
#: a food someone is allergic to ("allergic to peanuts", 对花生严重过敏): eating it conflicts
_ALLERGY = guarded(re.compile(
    r"\ballergic to (?:all\s+|most\s+)?(?P<x>(?!nothing\b)[a-z]+)"
    r"|\b(?P<y>[a-z]+)[- ]intolerant\b"
    r"|(?:\b(?:an?|his|her|their|has)|['’]s)\s+(?:(?:severe|mild|serious|bad|strong|"
    r"life-threatening)\s+)?(?P<w>(?!food\b|drug\b|seasonal\b|known\b|other\b)"
    r"[a-z]+(?:-[a-z]+)?)\s+allerg(?:y|ies)\b"
    r"|\ballergy\s+card\s+for\s+(?P<v>[a-z]+)"
    r"|对(?P<zh>\w{1,4}?)(?:严重|轻微|有点|有些)?过敏", re.I))
_EATS = guarded(re.compile(
    r"零食|最爱|爱吃|\b(?:eats?|eating|snacks?|has|orders?|drinks?|starts|begins|"
    r"tucks|go-to|spreads?|toast|sandwich(?:es)?|"
    r"favou?rite|breakfast|lunch|dinner)\b|"
    r"吃|喝|早餐|早饭|午饭|晚饭|抹|涂|蘸|面包|吐司",
    re.I))
#: a denial of eating or drinking a kind ("doesn't eat any meat", "never drinks alcohol",
#: 不吃任何肉, 不喝酒)
_DENIED = guarded(re.compile(
    r"(?:\b(?:not|never|no longer)|n['’]t)\s+(?:\w+\s+)?(?:eat|eats|drink|drinks|"
    r"touch|touches|touched|drunk|eaten|have|has)\s+(?:any\s+|a\s+drop\s+of\s+)?"
    r"(?P<what>[a-z]+)"
    r"|\bno\s+(?P<no>meat|fish|dairy|alcohol|eggs?|caffeine|coffee|sugar|gluten|"
    r"pork|beef)\b"
    r"|\b(?:gave|given|giving|give|gives)\s+up\s+(?P<gave>[a-z]+)"
    r"|\bstopped\s+(?:eating|drinking)\s+(?P<stopped>[a-z]+)"
    r"|\bcut\s+out\s+(?:all\s+)?(?P<cut>[a-z]+)"
    r"|\bavoids\s+(?:all\s+|any\s+)?(?P<avoids>caffeine|alcohol|coffee|tea|meat|"
    r"fish|dairy|sugar|pork|eggs?|booze)\b"
    # a drink one cannot bear is one not drunk ("can't stand coffee")
    r"|\b(?:hates|detests|loathes|can['’]t\s+stand|cannot\s+stand)\s+"
    r"(?P<hates>coffee|caffeine|alcohol|booze)\b"
    r"|(?:n['’]t|\bnot|\bnever)\s+(?:had|touched|tasted)\s+(?:a\s+(?:single\s+)?"
    r"(?:drop|sip|bite|cup|glass|mouthful)\s+of\s+|any\s+)?(?P<had>[a-z]+)"
    r"|(?:不|从不|没)(?:吃|喝|碰)(?:任何)?含?(?P<zh>\w{1,3})"
    r"|一(?:口|滴|点|块)(?P<zh_pre>[\u4e00-\u9fff]{1,3}?)(?:都|也)(?:不|没)(?:能|敢)?"
    r"(?:喝|吃|碰)", re.I))
#: eating or drinking as a habit or a liking, not in the past ("used to drink")
_CONSUMES = guarded(re.compile(
    r"\b(?:eats?|eating|drinks?|drinking|has|have|having|orders?|ordering|"
    r"snacks?|loves?|likes?|enjoys?|favourite|favorite|go-to|split|grabs?|"
    r"shares?|usual|typical|starts|begins|wolfs|tucks|grabs|douses|"
    r"polishes|ritual|staple|unwinds|whips\s+up|rustles\s+up)\b|\b(?:a|one|two|three)\s+"
    r"(?:couple\s+of\s+)?(?:glass|glasses|pint|pints|cup|cups|mug|bottle|can|"
    r"cans)\s+(?:or\s+two\s+)?of\b|\bgets?\s+through\b"
    # a count of drinks ("two double espressos before 8am"; not "had two
    # beers at the match")
    r"|(?<!had )(?<!drank )(?<!downed )\b(?:two|three|four|five|[2-9])\s+"
    r"(?:double\s+|large\s+|strong\s+)?"
    r"(?:espressos|coffees|lattes|cappuccinos|americanos|flat whites|pints|"
    r"beers)\b"
    # one's meal as what it is ("breakfast every morning is a wheat bagel", "breakfast is
    # always toast with cheddar"), not a meal had once
    r"|\b(?:breakfast|lunch|dinner|supper|brunch)\s+(?:every\s+\w+\s+|most\s+days\s+)?"
    r"(?:is|are)\s+(?:(?:usually|always)\s+|(?:an?|the|some|two|three)\b)"
    r"|吃|喝|爱|喜欢|来一?杯|点一?杯|点[了个]?一?份|[一二两三四五\d]杯|每顿|早餐|早饭|午饭|"
    r"晚饭", re.I))
#: a diet kept only at times ("vegan on weekdays", "vegetarian at home", "mostly vegan")
_AT_TIMES = re.compile(r"\s+(?:on(?!\s+(?:(?:his|her|their|the|a)\s+)?(?:[\w-]+['’]s\s+)?(?:orders|"
                       r"advice|recommendation)\b)|at(?!\s+all\b)|during|except|when|while|until|"
                       r"in(?!\s+(?:(?:his|her|their|my|\w+['’]s)\s+(?:whole\s+|entire\s+)?life|years)\b)|most|"
                       r"mostly|"
                       r"for(?!\s+(?:(?:\w+|\d+)\s+)?(?:years|ages|decades|a decade|life|good|"
                       r"a long time|months|reasons?)\b)|"
                       r"mainly|apart|outside)\b|\s*(?:，|,)\s*(?:except|but|apart)|(?:时|的时候|期间)",
                       re.I)
#: a diet kept once for a while ("was vegetarian for ten years", "… until 2019"): over
_ENDED = re.compile(r"\bfor\s+(?:\w+\s+)?(?:years|months|decades|a\s+while)\b|\buntil\b|"
                    r"\bin\s+(?:19|20)\d\d\b|\bas\s+an?\s+(?:student|teenager|child|kid)\b|"
                    r"\b(?:throughout|during|in|for\s+all\s+of)\s+(?:his|her|their)\s+(?:teens|"
                    r"twenties|thirties|forties|fifties|youth|childhood|student\s+days)\b", re.I)
#: a Chinese diet kept on some days only (每逢初一十五吃素)
_ZH_SOME_DAYS = re.compile(r"每逢|逢年过节|初一十五|周[一二三四五六日天]|星期|偶尔|有时|基本|大多|"
                           r"多数时候")
#: a diet held only in part ("is mildly lactose intolerant")
_MILD = re.compile(r"\b(?:mildly|slightly|somewhat|partly|partially)\b", re.I)
#: a denial still to come ("has told her to cut out sugar", "should give up meat")
_TOLD_TO = re.compile(r"\b(?:to|should|must|might|could|would|wants? to|trying to)\s+$", re.I)
#: "doesn't drink coffee after noon / before a run"
_AFTER_TIME = re.compile(r"\s+(?:after|before)\b", re.I)
#: what stands in for meat, fish or milk ("an oat-milk flat white", "a vegan burger")
_PLANT = guarded(re.compile(
    r"\b(?:oat|soy|soya|almond|coconut|rice|plant)[- ]?(?:milk|based)\b|\bvegan\b|"
    r"\bveggie\b|\bmeat[- ]?(?:free|less)\b|\bdairy[- ]free\b|\btofu\b|\bseitan\b|"
    r"\bbeyond\b|\bimpossible\b|燕麦奶|豆奶|植物奶|素肉|豆腐", re.I))
#: food said to hold no gluten ("gluten-free bread", 无麸质面包)
NO_GLUTEN = re.compile(r"\bgluten[- ]free\b|\bno[- ]gluten\b|无麸质|免麸质|不含麸质", re.I)
#: "had a rare steak last night, as she does most weeks": the past, as a habit
_HAD = re.compile(r"\b(?:had|ate|drank|ordered)\b", re.I)
_HABIT = re.compile(r"\b(?:every|most|usually|often|always|regularly|as (?:she|he|they) does)\b",
                    re.I)
#: food or drink made or bought for someone else ("for her kids", 给女儿煮面, 做给家人吃)
FOR_OTHERS = re.compile(r"\bfor (?:her|his|their) (?:kids|children|family|guests|partner|"
                        r"husband|wife|son|daughter|parents)\b|做给|给[^，。,；;]{0,4}(?:家人|孩子|"
                        r"朋友|客人|老公|老婆|丈夫|妻子|父母|爸妈|儿子|女儿)"
                        r"(?:吃|喝|做|煮|炒|烧|买|泡|冲)", re.I)
_NOT_NOW = guarded(re.compile(
    r"\bused to\b|\bno longer\b|\bdied\b|\bpassed away\b|\brehomed\b|"
    r"\bgave up\b|\bquit\b|\bstopped\b|\bfree\b|"
    r"\bnon-alcoholic\b|以前|戒了(?![^，。,；;]*没戒掉)|不再|"
    + FOR_OTHERS.pattern,
    re.I))


#: a food named after what it is not made of ("beef bacon", "veggie burger", "vegan cheese"):
#: the word after it is not that food
_NOT_MADE_OF = "".join(rf"(?<!{w} )" for w in ("beef", "turkey", "chicken", "veggie", "vegan",
                                                "halal", "tofu", "soy", "plant-based", "oat",
                                                "almond", "meatless", "dairy-free"))


#: the words that name a pet, by its kind ("retriever": a dog, "tabby": a cat, 柯基: a dog)
_PET_KIND = {w: kind for kind in ("dog", "cat", "small pet") for w in KINDS[kind]}
_PET_ALTS = "|".join(sorted((w for w in _PET_KIND if w.isascii()), key=len, reverse=True))
ZH_PET_ALTS = "|".join(sorted((w for w in _PET_KIND if not w.isascii()), key=len,
                               reverse=True))
#: words of a pet's kind that name no one breed: a "retriever" may be a labrador, a
#: "tabby" any cat; any other two of one kind are two breeds, two animals (a beagle is no
#: labrador, 金毛 no 柯基)
_NO_BREED = frozenset(("dog", "puppy", "retriever", "terrier", "spaniel", "cat", "kitten",
                       "tabby", "狗", "猫", "bunny", "rabbit", "兔子"))
#: a pet of one's own with its name ("has a golden retriever named Biscuit", "User's tabby
#: cat Biscuit", 养的狗叫旺财，是一只金毛, 旺财是用户家的柯基)
_PET_NAMED = re.compile(
    rf"\b(?:has|have|owns?|adopted|got|is)\s+an?\s+(?:[\w-]+\s+){{0,2}}?(?P<kind>(?i:{_PET_ALTS}))\s+"
    rf"(?:named|called)\s+(?P<name>[A-Z][\w-]+)"
    # "The user's dog is called Max"; "Rolo is the only dog Finn has ever owned"
    rf"|['’]s\s+(?P<only>only\s+)?(?P<kind6>(?i:{_PET_ALTS}))\s+is\s+(?:called\s+|named\s+|"
    rf"(?(only)|(?!)))(?P<name6>[A-Z][\w-]+)"
    rf"|['’]s\s+(?:[\w-]+\s+){{0,2}}?(?P<kind2>(?i:{_PET_ALTS})),?\s+(?P<name2>[A-Z][\w-]+)"
    # "walks her spaniel, Pepper, round the park"
    rf"|\b(?:[Hh]er|[Hh]is|[Tt]heir|[Mm]y)\s+(?:[\w-]+\s+){{0,2}}?(?P<kind7>(?i:{_PET_ALTS})),?\s+"
    rf"(?P<name7>[A-Z][\w-]+)"
    rf"|叫(?P<name4>[\u4e00-\u9fff]{{2}})[，,]?(?:是)?(?:一|那)?(?:只|条)(?P<kind4>{ZH_PET_ALTS})"
    rf"|(?:^|[，。；,;])(?:用户)?(?P<name5>[\u4e00-\u9fff]{{2}})是(?:用户|我|他|她)?(?:家)?的?"
    rf"(?:一|那)?(?:只|条)?(?P<kind5>{ZH_PET_ALTS})")


#: "Miso, the family pet, is a beagle"; "User's pet Miso is a tabby cat" (not "a cat
#: person"): read apart, as the name may end a match of :data:`_PET_NAMED` ("User's dog
#: Biscuit is a beagle")
_PET_IS = re.compile(
    rf"\b(?P<name3>[A-Z][\w-]+),?\s+(?:the\s+(?:family|household|user['’]s)\s+pet,?\s+)?"
    rf"is\s+an?\s+(?:[\w-]+\s+){{0,2}}?(?P<kind3>(?i:{_PET_ALTS}))\b"
    r"(?!\s+(?:person|people|lover|owner|sitter|walker|breeder|groomer|fan)\b)")


#: another pet of the same name ("Her parents' dog, also called Rex, …")
_ALSO_CALLED = re.compile(r"\balso\s+(?:called|named)\b", re.I)


def named_pets(text: str) -> dict[str, str]:
    """The pets ``text`` names, name → the word it names its kind by (lower case).

    >>> named_pets("User has a golden retriever named Biscuit")
    {'Biscuit': 'retriever'}
    >>> named_pets("User's tabby cat Biscuit sleeps on the shelf")
    {'Biscuit': 'cat'}
    >>> named_pets("旺财是用户家的柯基，腿短短的")
    {'旺财': '柯基'}
    """
    return dict(_named_pets(text))


@lru_cache(maxsize=50_000)
def _named_pets(text: str) -> tuple[tuple[str, str], ...]:
    """:func:`named_pets`, read once per text (every pair of an audit asks again)."""
    out: dict[str, str] = {}
    if _ALSO_CALLED.search(text) or any(
            m.group(0).split()[-1] in ("pet", *_PET_KIND) for m in _OTHERS_PET.finditer(
                text.lower())):
        return ()  # "Her parents' dog, also called Rex, …": another's pet
    for m in (*_PET_NAMED.finditer(text), *_PET_IS.finditer(text)):
        groups = m.groupdict()
        name = next(v for k, v in groups.items() if k.startswith("name") and v)
        kind = next(v for k, v in groups.items() if k.startswith("kind") and v).lower()
        if name not in out or out[name] in _NO_BREED:  # the breed over "dog"
            out[name] = kind
    return tuple(out.items())


#: a pet said to be one's only one ("only pet", "the only dog Finn has ever owned")
ONLY_PET = re.compile(r"\bonly\s+(?:pet|dog|cat|animal)\b|\b(?:single|sole)\s+(?:pet|dog|cat)\b"
                      r"|\bone\s+and\s+only\s+(?:pet|dog|cat)\b", re.I)


def pet_kind(word: str) -> str:
    """The kind of pet a word names ("beagle": "dog")."""
    return _PET_KIND[word]


def other_pets(one: str, other: str) -> bool:
    """Whether two words name two animals: a dog and a cat, or two breeds of one
    (a beagle and a poodle, 金毛 and 柯基; not a retriever and a labrador: :data:`_NO_BREED`)."""
    return _PET_KIND[one] != _PET_KIND[other] or (
        one != other and one not in _NO_BREED and other not in _NO_BREED)


@lru_cache(maxsize=100_000)
def _word(w: str) -> re.Pattern[str]:
    """How an English food word is found: a short word whole, its plural too ("gin" is not
    "ginger", "tea" not "team"); a longer one as the start of a word ("anchov" in
    "anchovies"); not after what it is not made of ("beef bacon")."""
    tail = r"(?:s|es)?(?![a-z])" if len(w) <= 4 else ""
    return re.compile(rf"(?<![a-z]){_NOT_MADE_OF}{re.escape(w)}{tail}")


def _names(w: str, low: str) -> bool:
    """Whether the lower-cased text ``low`` names the English word ``w`` (:func:`_word`)."""
    return _word(w).search(low) is not None


@lru_cache(maxsize=50_000)
def ruled_out(text: str) -> frozenset[str]:
    """The kinds of food and drink ``text`` says its owner does not have: a diet ("is
    vegan") or a denial ("doesn't eat fish", 不喝酒)."""
    if not _RULING.search(text):
        return frozenset()  # cheap: most texts keep no diet and deny no food
    out = {kind for pattern, kinds in DIETS for m in pattern.finditer(text)
           if not _AT_TIMES.match(text, m.end()) and not _MILD.search(m.group(0))
           and not _ZH_SOME_DAYS.search(re.split(r"[，。,；;]", text[:m.start()])[-1])
           and not _TOLD_TO.search(text[:m.start()]) and not (
               m.group(0).lower().startswith("was") and _ENDED.search(text))
           for kind in kinds}
    for m in _DENIED.finditer(text):
        if (m.group("gave") or m.group("stopped") or m.group("cut")) and _EPISODE.search(text):
            continue  # "During Lent this year, Pieter gave up meat": for a while
        if _TOLD_TO.search(text[:m.start()]):
            continue  # "her doctor has told her to cut out sugar": not done yet
        if _AT_TIMES.match(text, m.end()) or _AFTER_TIME.match(text, m.end()) or (
                (m.group("zh") or m.group("zh_pre")) and ZH_AT_TIMES.search(
                    re.split(r"[，。,；;]", text[:m.start()])[-1])):
            continue  # "doesn't drink coffee after noon", 晚上不喝咖啡: only at times
        what = (m.group("what") or m.group("no") or m.group("gave") or m.group("stopped")
                or m.group("avoids") or m.group("hates") or m.group("had") or m.group("cut")
                or m.group("zh") or m.group("zh_pre") or "").lower()
        out |= {kind for kind, names in _KIND_NAMES.items() if what.removeprefix("任何") in names
                or what.rstrip("s") in names}
    return frozenset(out)


@lru_cache(maxsize=50_000)
def consumed(text: str) -> frozenset[str]:
    """The kinds of food, drink, tobacco or pet ``text`` says its owner has now ("orders a
    whisky every Friday", "walks his beagle", 每天早上都要喝两杯拿铁); nothing for the past
    or for others."""
    if _NOT_NOW.search(text):
        return frozenset()
    low = text.lower()
    plant = _PLANT.search(text) is not None
    eats = bool(_CONSUMES.search(text) or (_HAD.search(text) and _HABIT.search(text)))
    out = set()
    for kind, words in KINDS.items():
        said = _HAS["pet" if kind in _PETS else kind] if kind in (*_PETS, "tobacco") else None
        # (a pet of someone else's is not one's own: "walks his neighbour's beagle"; a
        # coffee without coffee is none: "decaf", "matcha latte", 抹茶拿铁)
        mine = _OTHERS_PET.sub(" ", low) if kind in _PETS else (
            _NO_COFFEE.sub(" ", low) if kind == "coffee" else low)
        written = _NO_COFFEE.sub(" ", text) if kind == "coffee" else text
        if (said.search(text) if said else eats) and not (plant and kind in (
                "meat", "dairy", "lactose", "fish")) and not (kind == "gluten" and NO_GLUTEN.search(
                text)) and any(
                _names(w, mine) if w.isascii() else w in written
                for w in words):
            out.add(kind)
    return frozenset(out)


#: what is called a coffee and holds none ("decaf coffee", "a matcha latte", 抹茶拿铁), and
#: where coffee is sold (咖啡馆)
_NO_COFFEE = guarded(re.compile(
    r"\bdecaf(?:feinated)?\s+(?:\w+\s+)?(?:coffee|latte|cappuccino|"
    r"americano|espresso|flat white)s?\b|\b(?:matcha|chai|turmeric|golden|"
    r"dirty chai)\s+lattes?\b|抹茶拿铁|奶茶|低因|无咖啡因|咖啡(?:馆|厅|店)",
    re.I))
#: a possessive of someone else's and the words after it ("his neighbour's old beagle"), or
#: an animal no one keeps ("a stray cat", 流浪猫)
_OTHERS_PET = re.compile(r"\b(?:neighbou?r|friend|sister|brother|mother|father|mum|mom|dad|"
                         r"parent|cousin|aunt|uncle|colleague|flatmate|roommate|son|daughter|"
                         r"partner|boss)['’]s\s+(?:[a-z-]+\s+){0,2}[a-z]+"
                         r"|\b(?:parents|neighbou?rs|grandparents|friends)['’]\s+(?:[a-z-]+\s+)"
                         r"{0,2}[a-z]+"
                         r"|\b(?:stray|feral|wild)\s+(?:[a-z-]+\s+)?[a-z]+")


#: sugar or coffee given up some time ago and not had since ("has been off sugar for two
#: years", 三年没喝咖啡, 戒糖); smoking and drinking given up are the levels' "former"
#: (:func:`memscope.meaning.levels.given_up_habits`)
_GIVEN_UP = guarded(re.compile(
    r"\b(?:has been|have been|has stayed|is|'s) off (?P<off>sugar|coffee|caffeine)\b"
    r"|\bhas(?:n['’]t| not) (?:had|touched) (?:any )?(?P<had>sugar|coffee|caffeine) "
    r"(?:in|for|since)\b"
    r"|(?:\d+|[一二两三四五六七八九十几半]+)(?:年|个月)(?:多)?(?:都)?没(?:有)?(?:喝|碰|吃)(?:过)?"
    r"(?:一口)?(?P<zh>糖|咖啡)"
    r"|戒(?P<zh_quit>糖|咖啡)", re.I))
_GIVEN_UP_KIND = {"sugar": "sugar", "coffee": "coffee", "caffeine": "coffee", "糖": "sugar",
                  "咖啡": "coffee"}
#: giving up for a while only ("when she was pregnant", "while training", "during Lent")
_EPISODE = re.compile(r"\b(?:when|while|during|until|for lent)\b|(?:的时候|期间|那段时间)", re.I)
#: the kind a habit given up is (:func:`memscope.meaning.levels.given_up_habits`)
_HABIT_KIND = {"drinking": "alcohol", "smoking": "tobacco"}
#: had lately, once: a recent time and a verb of having in the past ("had two beers at the
#: match last Saturday", "got drunk at a wedding last month", 上周末…喝了五六瓶啤酒)
_LATELY = re.compile(r"\b(?:last (?:week|weekend|month|night|year|monday|tuesday|wednesday|"
                     r"thursday|friday|saturday|sunday|christmas|summer)|yesterday|on (?:monday|"
                     r"tuesday|wednesday|thursday|friday|saturday|sunday)|"
                     r"(?:a few|two|three|several) (?:days|weeks) ago|the other (?:day|night)|"
                     r"this (?:week|weekend|month|morning|afternoon|evening)|today|tonight)\b"
                     r"|上周|上个?月|昨天|昨晚|前天|前几天|这周|本周|上礼拜", re.I)
_HAD_ONCE = re.compile(r"\b(?:had|drank|downed|sank|ate|smoked|got (?:properly |really |very )?"
                       r"drunk|bummed|lit up|tried|went back for seconds|had seconds|polished "
                       r"off|ordered|devoured|wolfed down|tucked into|scoffed)\b"
                       r"|喝了|喝醉|抽了|吃了|来了|点了", re.I)


@lru_cache(maxsize=50_000)
def given_up(text: str) -> frozenset[str]:
    """The kinds ``text`` says its owner gave up some time ago and has not had since
    ("quit drinking in 2019", "has been sober for ten years", 已经三年没喝酒了).

    >>> sorted(given_up("Ahmed quit drinking in 2019.")), sorted(given_up("戒烟五年了"))
    (['alcohol'], ['tobacco'])
    >>> sorted(given_up("Ahmed has been off sugar for two years."))
    ['sugar']
    """
    if _EPISODE.search(text):
        return frozenset()  # "stopped drinking when she was pregnant": for a while only
    return frozenset(_HABIT_KIND[habit] for habit in given_up_habits(text)) | frozenset(
        _GIVEN_UP_KIND[next(g for g in m.groups() if g).lower()]
        for m in _GIVEN_UP.finditer(text))


@lru_cache(maxsize=50_000)
def had_lately(text: str, when: str = "", *, every: bool = False) -> frozenset[str]:
    """The kinds ``text`` says its owner had once, lately ("had two beers at the match last
    Saturday", 上周末喝了五六瓶啤酒); the time may be said in ``when`` instead (the whole
    memory of a clause: 老周上周末跟同事吃烧烤，喝了五六瓶啤酒). Drink, tobacco, sugar and
    coffee, or with ``every`` any kind ("had scrambled eggs this morning").

    >>> sorted(had_lately("Ahmed had two beers at the match last Saturday."))
    ['alcohol']
    >>> sorted(had_lately("Ahmed had two beers in 2015.")), sorted(had_lately("昨天喝了半斤白酒"))
    ([], ['alcohol'])
    """
    if not (_LATELY.search(text) or _LATELY.search(when)):
        return frozenset()
    return had_once(text, every=every)


@lru_cache(maxsize=50_000)
def had_once(text: str, *, every: bool = False) -> frozenset[str]:
    """The kinds ``text`` says its owner had once, whenever (:func:`had_lately` without
    the time: "smoked a cigarette at his cousin's party")."""
    if not _HAD_ONCE.search(text):
        return frozenset()
    low = text.lower()
    drunk = re.search(r"\bgot (?:properly |really |very )?drunk\b|喝醉", text, re.I)
    return frozenset(kind for kind, words in KINDS.items()
                     if (every or kind in ("alcohol", "tobacco", "sugar", "coffee")) and (
                         any(_names(w, low) if w.isascii() else w in text
                             for w in words) or (drunk and kind == "alcohol")))


@lru_cache(maxsize=50_000)
def allergens(text: str) -> frozenset[str]:
    """The foods ``text`` says its owner is allergic to ("peanut", 花生)."""
    found = ((m.group("x") or m.group("y") or m.group("w") or m.group("v") or ""
              ).lower().removesuffix("s")
             or m.group("zh") for m in _ALLERGY.finditer(text))
    return frozenset(_ZH_ANIMAL_ALLERGY.get(x, x) for x in found)


#: an allergy to an animal's fur is to the animal (对狗毛过敏: to dogs)
_ZH_ANIMAL_ALLERGY = {"狗毛": "dog", "狗": "dog", "猫毛": "cat", "猫": "cat"}


#: what an allergy does when it is eaten (吃一点虾就全身起红疹): the allergy, not a habit
_REACTION = re.compile(r"\b(?:rash|hives|swell(?:s|ing)?|reaction|epipen|anaphyla\w*)\b|"
                       r"起红疹|起疹|过敏|红肿|喉头水肿|抗过敏", re.I)


#: an allergy kept in check, which lets one live with the animal or eat a little
_MANAGED = guarded(re.compile(
    r"\b(?:antihistamines?|allergy (?:pills?|tablets?|medication|meds|shots?)|"
    r"hypoallergenic)\b|\b(?:doesn['’]t|does not|never) trigger\b|"
    r"抗过敏药|过敏药|脱敏|不会过敏", re.I))


def managed(text: str) -> bool:
    """``text`` says an allergy is kept in check ("takes an antihistamine every day",
    每天吃抗过敏药): living with what one is allergic to is then no conflict."""
    return _MANAGED.search(text) is not None


def eats_allergen(allergic: str, other: str) -> bool:
    """``other`` says its owner eats what ``allergic`` says they are allergic to ("allergic
    to peanuts" / "eats peanut butter on toast", 对花生严重过敏 / 每天早餐都吃花生酱吐司)."""
    found = allergens(allergic)
    if not found or _MILD.search(allergic):
        return False  # none; or "mildly allergic to cats" / "has a cat": both may hold
    if found & {"cat", "dog"} and found & consumed(other):
        return True  # "allergic to cats" / "Hugo's three cats sleep on his bed"
    if "penicillin" in found and _TOOK_DRUG.search(other) and not _MILD.search(other) and any(
            _names(x, other.lower()) for x in ("penicillin", *_ALLERGEN_KINDS["penicillin"])
    ) and "allerg" not in other.lower():
        return True  # "allergic to penicillin" / "took a full course of amoxicillin"
    if not found or not _EATS.search(other) or _NOT_NOW.search(other) or _REACTION.search(
            other):
        return False
    low = other.lower()
    found = {*found, *(k for x in found for k in _ALLERGEN_KINDS.get(x, ()))}
    return any(_names(x, low) if x.isascii() else x in other
               for x in found if len(x) >= 2 or not x.isascii())


#: taking a medicine ("took a full course of amoxicillin")
_TOOK_DRUG = re.compile(r"\b(?:took|takes|taking|was\s+given|is\s+given|was\s+prescribed|"
                        r"is\s+on|finished)\s+(?:a\s+(?:full\s+|short\s+)?course\s+of\s+|some\s+)?",
                        re.I)
#: an allergen named by its kind, and what is one of it ("allergic to tree nuts" /
#: "snacks on cashews")
_ALLERGEN_KINDS = {"penicillin": ("amoxicillin", "ampicillin", "flucloxacillin", "augmentin",
                                  "co-amoxiclav"),
                   "tree": ("cashew", "almond", "walnut", "pecan", "hazelnut", "pistachio",
                            "macadamia", "brazil nut"),
                   "nut": ("cashew", "almond", "walnut", "pecan", "hazelnut", "pistachio",
                           "macadamia", "peanut"),
                   "shellfish": ("prawn", "shrimp", "crab", "lobster", "mussel", "oyster",
                                 "scallop", "clam"),
                   "海鲜": ("虾", "蟹", "贝", "生蚝", "鱿鱼", "蛤蜊", "海参"),
                   "酒精": ("酒",), "alcohol": ("beer", "wine", "whisky", "vodka", "gin"),
                   "dairy": ("milk", "cheese", "yogurt", "yoghurt", "butter", "cream", "latte")}


#: "has no (food / drug / known) allergies", "isn't allergic to anything", 没有任何过敏,
#: 对任何食物都不过敏: the kind of allergy denied ("" for any)
_NO_ALLERGY = guarded(re.compile(
    r"\b(?:has|have|had)\s+no\s+(?:known\s+)?(?P<kind>food|drug|medication|medicine)?\s*"
    r"(?:allerg(?:ies|y)|intoleranc(?:es|e))\b(?!\s+to\b)|\ballergic\s+to\s+nothing\b"
    r"|\bno\s+known\s+(?P<kind3>food|drug|medication|medicine)?\s*allerg(?:ies|y)\b"
    r"|\b(?:is|are)\s*(?:not|n['’]t)\s+allergic\s+to\s+(?:any|anything)"
    r"(?:\s+(?P<kind2>food|drug|medication|medicine)s?)?\b"
    r"|没有(?:任何)?(?P<zhkind>食物|药物)?过敏|对任何(?P<zhkind2>食物|药物|东西)?都?不过敏"
    r"|没(?:有)?对任何(?P<zhkind3>食物|药物|东西)?过敏"))
#: what counts as a food or a medicine to be allergic to (the commonest allergens)
_FOOD_ALLERGENS = ("peanut", "nut", "lactose", "almond", "cashew", "walnut", "hazelnut",
                   "pistachio",
                   "sesame", "shellfish", "prawn", "shrimp", "crab", "lobster", "fish", "egg",
                   "milk", "dairy", "soy", "soya", "wheat", "gluten", "strawberr", "kiwi",
                   "celery", "mustard", "lupin", "花生", "坚果", "芝麻", "海鲜", "虾", "蟹",
                   "鱼", "鸡蛋", "牛奶", "大豆", "小麦", "芒果")
_DRUG_ALLERGENS = ("penicillin", "amoxicillin", "antibiotic", "aspirin", "ibuprofen", "sulfa",
                   "sulphonamide", "sulfonamide", "codeine", "morphine", "nsaid", "cephalosporin",
                   "青霉素", "阿莫西林", "抗生素", "阿司匹林", "布洛芬", "头孢")


@lru_cache(maxsize=50_000)
def allergy_denied(text: str) -> str | None:
    """The kind of allergy ``text`` says its owner has none of: ``""`` for any ("has no
    allergies", 没有任何过敏), ``"food"`` or ``"drug"``; ``None`` when it denies none."""
    m = _NO_ALLERGY.search(text)
    if m is None:
        return None
    kind = (m.group("kind") or m.group("kind2") or m.group("kind3") or m.group("zhkind")
            or m.group("zhkind2") or m.group("zhkind3") or "").lower()
    return {"medication": "drug", "medicine": "drug", "食物": "food", "药物": "drug",
            "东西": ""}.get(kind, kind)


def allergy_conflict(a: str, b: str) -> bool:
    """``a`` says its owner has no allergies (of a kind) and ``b`` names one of that kind
    ("has no food allergies at all" / "is allergic to shellfish", 没有任何药物过敏 /
    对青霉素过敏)."""
    kind = allergy_denied(a)
    if kind is None:
        return False
    found = allergens(b)
    if not found or allergy_denied(b) is not None:
        return False
    if not kind:
        return True
    words = _FOOD_ALLERGENS if kind == "food" else _DRUG_ALLERGENS
    return any(x.startswith(w) or (not x.isascii() and w in x) for x in found for w in words)


__all__ = ["DIETS", "FOR_OTHERS", "KINDS", "NO_GLUTEN", "allergens", "allergy_conflict",
           "allergy_denied", "consumed", "eats_allergen", "ruled_out"]
